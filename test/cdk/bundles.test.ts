import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { routes, workers } from '../../functions/routes.js';
import { BROWSER_NODE_MODULES, bundlingOptions, REPO_ROOT, VALIDATOR_NODE_MODULES } from '../../lib/gleaner-function.js';

// The stack tests skip bundling; this builds each handler the way NodejsFunction does (same
// format, target and externals) and inspects what went in. Rows whose handler file does not
// exist yet are skipped here (a separate test checks that every handler file exists).

/** Nothing from a browser stack may reach an API Lambda: cold starts and the 250 MB limit. */
const BROWSER_PACKAGES = /node_modules\/(puppeteer|puppeteer-core|chromium-bidi|@sparticuz\/chromium|@puppeteer\/[^/]+)\//;

/**
 * Each handler is built once per set of bundling options and the metafile shared by every check
 * below (bundlingOptions reads only whether each flag is set, so that is the key): a route
 * without validators is otherwise built twice with the same options, and a handler two routes
 * share once per route. The build is deterministic; each check still reads its own bundle.
 */
const metas = new Map<string, Promise<Metafile>>();
function bundleMeta(handler: string, flags: { browser?: boolean; validators?: boolean } = {}): Promise<Metafile> {
  const key = `${handler} browser=${!!flags.browser} validators=${!!flags.validators}`;
  let m = metas.get(key);
  if (!m) metas.set(key, (m = buildMeta(handler, { browser: !!flags.browser, validators: !!flags.validators })));
  return m;
}

async function buildMeta(handler: string, flags: { browser: boolean; validators: boolean }): Promise<Metafile> {
  const opts = bundlingOptions(flags);
  const result = await build({
    entryPoints: [join(REPO_ROOT, handler)],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: opts.target,
    banner: { js: opts.banner! },
    external: [...(opts.externalModules ?? []), ...(opts.nodeModules ?? [])],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile as Metafile;
}
const bundleInputs = async (handler: string, browser = false) => Object.keys((await bundleMeta(handler, { browser })).inputs);
/** Packages a bundle leaves to the runtime (external imports and requires), by package name. */
const externalPackages = (m: Metafile) =>
  new Set(Object.values(m.inputs).flatMap((i) => i.imports.filter((x) => x.external).map((x) => x.path.split('/').slice(0, x.path.startsWith('@') ? 2 : 1).join('/'))));
const VALIDATOR_CODE = new RegExp(`node_modules/(${VALIDATOR_NODE_MODULES.join('|')})/`);

const present = (file: string) => existsSync(join(REPO_ROOT, file));

describe('API handler bundles', () => {
  for (const r of routes) {
    it.skipIf(!present(r.handler))(`${r.id} (${r.handler}) bundles without Chromium or puppeteer`, async () => {
      const offending = (await bundleInputs(r.handler)).filter((i) => BROWSER_PACKAGES.test(i));
      expect(offending.slice(0, 5), `${offending.length} browser-stack modules in the bundle`).toEqual([]);
    });
  }
});

describe('API bundles and the validator libraries', () => {
  for (const r of routes) {
    it.skipIf(!present(r.handler))(`${r.id}: ${r.validators ? 'requires re2js and cheerio at run time, installed beside it' : 'inlines neither re2js nor cheerio'}`, async () => {
      const m = await bundleMeta(r.handler, { validators: r.validators });
      // Inlined, their code is parsed at every cold start: a route that needs them is marked
      // `validators` (routes.ts), which installs them beside the bundle instead.
      const inlined = Object.keys(m.inputs).filter((i) => VALIDATOR_CODE.test(i));
      expect(inlined.slice(0, 3), `${inlined.length} modules of ${VALIDATOR_NODE_MODULES.join(', ')} inlined: mark the route validators`).toEqual([]);
      // A marked route really loads them at run time (else the install is dead weight), with a
      // require (an external ESM import would be hoisted and loaded at init).
      if (r.validators) {
        const ext = externalPackages(m);
        expect(VALIDATOR_NODE_MODULES.some((p) => ext.has(p))).toBe(true);
        const kinds = Object.values(m.inputs).flatMap((i) => i.imports.filter((x) => x.external && VALIDATOR_NODE_MODULES.some((p) => x.path === p || x.path.startsWith(`${p}/`))).map((x) => x.kind));
        expect(new Set(kinds)).toEqual(new Set(['require-call']));
      }
    });
  }
});

describe('worker bundles', () => {
  for (const w of workers) {
    it.skipIf(!present(w.handler))(`${w.id} (${w.handler}) bundles${w.browser ? ', with @sparticuz/chromium installed, not inlined' : ' without Chromium or puppeteer'}`, async () => {
      const inputs = await bundleInputs(w.handler, w.browser);
      if (w.browser) {
        for (const m of BROWSER_NODE_MODULES) expect(inputs.some((i) => i.includes(`node_modules/${m}/`))).toBe(false);
      } else {
        const offending = inputs.filter((i) => BROWSER_PACKAGES.test(i));
        expect(offending.slice(0, 5), `${offending.length} browser-stack modules in the bundle`).toEqual([]);
      }
    });
  }
});
