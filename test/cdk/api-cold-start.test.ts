import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.js';
import { REPO_ROOT } from '../../lib/gleaner-function.js';
import { bundledInputs, cdkBundle, ENGINE_INPUT, initOutputs, type CdkBundle } from '../../bench/cdk-bundle.js';

// What an API function loads at cold start, read from its bundle (built as CDK builds it). The
// timings are measured by `npm run bench cold-start`; these are the structural causes of a slow
// init, each of which once made API functions 3-5x slower to start than a bare DynamoDB handler.

/**
 * SDK modules an API function may load at init: none. Every function reads the table, but the
 * composition root that creates the DynamoDB client is a chunk loaded by the first call (code
 * splitting, lib/gleaner-function.ts splitBundleArgs).
 */
const INIT_SDK = new Set<string>([]);

/**
 * Routes that call out through the egress guard on some paths only, in a chunk loaded by
 * `import()` then: a kept scrape answer (max_age) is served after robots.txt allows it now (issue
 * 37 finding 13, http/api-robots.ts), and a search provider's "save and test" makes one search
 * (core/search/test-provider.ts). They may carry robots-parser and the guard's HTTP client,
 * never at init.
 */
const ROBOTS_ON_CACHE_HIT = new Set(['functions/http/scrape-create.ts', 'functions/http/mcp-post.ts', 'functions/http/search-providers-test.ts']);
const ROBOTS_CHUNK = /node_modules\/(robots-parser|undici|iconv-lite)\/|functions\/core\/governance\/|functions\/core\/errors\.ts$/;

const handlers = [...new Map(routes.map((r) => [r.handler, r])).values()].filter((r) => existsSync(join(REPO_ROOT, r.handler)));
/** Each handler bundled once for all the checks below. */
const bundles = new Map<string, Promise<CdkBundle>>();
const bundleOf = (handler: string) => bundles.get(handler) ?? bundles.set(handler, cdkBundle(handler)).get(handler)!;

describe('API function bundles carry only what an API call needs', () => {
  for (const r of handlers) {
    it(`${r.id} (${r.handler})`, async () => {
      const b = await bundleOf(r.handler);
      // All of the function's code: the entry and its chunks (lib/gleaner-function.ts splitBundleArgs).
      const inlined = bundledInputs(b.metafile);
      // What Init loads: the entry and the chunks it imports statically.
      const initImports = initOutputs(b.metafile).flatMap(([, o]) => o.imports);

      // No engine code, HTML parser stack or HTTP client (undici, parse5, iconv-lite, domino, turndown, puppeteer).
      const atInitInputs = new Set(initOutputs(b.metafile).flatMap(([, o]) => Object.entries(o.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f)));
      const lazyRobots = (f: string) => ROBOTS_ON_CACHE_HIT.has(r.handler) && ROBOTS_CHUNK.test(f) && !atInitInputs.has(f);
      const engine = inlined.filter((f) => ENGINE_INPUT.test(f) && !lazyRobots(f));
      expect(engine.slice(0, 5), `${engine.length} engine/HTTP-client modules inlined`).toEqual([]);

      // zod is imported as a namespace (`import * as z`), so unused parts (every locale but the
      // default English one) tree-shake away.
      const locales = inlined.filter((f) => /node_modules\/zod\/v4\/locales\/(?!(index|en)\.js$)/.test(f));
      expect(locales.length, 'zod locales inlined: some module imports `{ z }` from zod').toBe(0);

      // External SDK modules imported statically are loaded at init even when unused; the others
      // must be loaded on first use (functions/adapters/aws/aws-deps.ts).
      const atInit = [...new Set(initImports.filter((i) => i.external && i.kind === 'import-statement' && i.path.startsWith('@aws-sdk/')).map((i) => i.path))];
      expect(atInit.filter((m) => !INIT_SDK.has(m))).toEqual([]);
      // And never by an ESM import at all, static or import(): an ESM import of the SDK's CommonJS
      // packages makes Node scan their sources for export names first (about a quarter of a cold
      // start); they are loaded by require (functions/adapters/aws/sdk-modules.ts).
      const esmSdk = Object.values(b.metafile.outputs).flatMap((o) => o.imports).filter((i) => i.external && i.path.startsWith('@aws-sdk/')).map((i) => `${i.kind} ${i.path}`);
      expect([...new Set(esmSdk)]).toEqual([]);

      // Web streams (node:stream/web and the modules it loads) are no API call's business: the
      // pipeline's middleware chain is our own (pipeline/middleware-chain.ts), because
      // @middy/core imported them at init for its response streaming.
      const builtinsAtInit = initImports.filter((i) => i.external && i.kind === 'import-statement').map((i) => i.path);
      expect(builtinsAtInit.filter((m) => m === 'node:stream/web' || m === 'stream/web')).toEqual([]);
    });
  }
});

/**
 * Modules an API function loads at init only if its route cannot answer without them (issue 31).
 * Reachable from the entry by static imports = evaluated at init (Lambda's Init phase) whether or
 * not the call needs them; what a route uses on some paths only it loads with `await import()`.
 */
const NOT_AT_INIT: Array<{ what: string; re: RegExp }> = [
  { what: 'model extraction', re: /functions\/core\/extraction\/(model-extractor|extract-json|schema-compile|prompt)\.ts$|functions\/adapters\/(configured-model|aws\/bedrock-model|local\/openai-compatible-model)\.ts$/ },
  { what: 'MCP SDK', re: /node_modules\/@modelcontextprotocol\/sdk\/|functions\/core\/mcp\// },
  { what: 'PDF', re: /node_modules\/(unpdf|pdfjs-dist)\// },
  { what: 'sitemaps', re: /functions\/core\/discovery\/(discover-sitemaps|sitemap-parser|sitemap-body)\.ts$/ },
  { what: 'ajv', re: /node_modules\/(ajv|ajv-formats)\// },
];

/** Inputs reachable from `entry` through static imports (import statements and require calls) only. */
function staticallyReachable(meta: { inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }> }, entry: string): Map<string, string> {
  const from = new Map<string, string>([[entry, '']]);
  const queue = [entry];
  while (queue.length) {
    const f = queue.shift()!;
    for (const i of meta.inputs[f]?.imports ?? []) {
      if (i.external || i.kind === 'dynamic-import' || from.has(i.path)) continue;
      from.set(i.path, f);
      queue.push(i.path);
    }
  }
  return from;
}

/** Each listed module evaluated at init, with the import chain from the entry that reaches it. */
function reachedAtInit(b: CdkBundle, entry: string, list: Array<{ what: string; re: RegExp }>): string[] {
  const reach = staticallyReachable(b.metafile, entry);
  const chain = (f: string) => {
    const c: string[] = [];
    for (let x: string | undefined = f; x; x = reach.get(x) || undefined) c.unshift(x);
    return c.join(' -> ');
  };
  return list.flatMap(({ what, re }) => {
    const hit = [...reach.keys()].find((f) => re.test(f));
    return hit ? [`${what}: ${chain(hit)}`] : [];
  });
}

describe('API functions load at init only what their route needs', () => {
  for (const r of handlers) {
    it(`${r.id} (${r.handler})`, async () => {
      const b = await bundleOf(r.handler);
      expect(reachedAtInit(b, r.handler, NOT_AT_INIT)).toEqual([]);
    });
  }
});

/**
 * Schemas are built on first use (issue 31): a handler names its contract by id and loads it, with
 * the core modules it calls, when a request reaches its code (pipeline/api.ts lazyContract,
 * loadOnce), so a cold start evaluates neither its contract group (every route's zod schemas of
 * the group) nor zod itself, and an unauthenticated request is answered without them.
 */
const SCHEMAS_NOT_AT_INIT: Array<{ what: string; re: RegExp }> = [
  { what: 'a contract group (its routes\' zod schemas)', re: /functions\/http\/contracts\/(?!contract\.ts$)[^/]+\.ts$/ },
  { what: 'zod', re: /node_modules\/zod\// },
];

describe('API functions build no zod schema at init', () => {
  for (const r of handlers) {
    it(`${r.id} (${r.handler})`, async () => {
      const b = await bundleOf(r.handler);
      expect(reachedAtInit(b, r.handler, SCHEMAS_NOT_AT_INIT)).toEqual([]);
    });
  }
});
