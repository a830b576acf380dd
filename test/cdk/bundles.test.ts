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
 * What one handler's build puts in: its entry and every file reachable from it by the imports
 * esbuild resolved (a metafile's inputs, with their imports). The handlers are built together, one
 * build per set of bundling options (bundlingOptions reads only whether each flag is set, so that
 * is the key) with the options of a single handler's build. A file's parse and the imports it
 * resolves do not depend on which entry reached it, nor on how the output is cut into files, so
 * the files reachable from an entry are exactly the inputs of that handler's build alone (checked
 * for every handler and set of options when this was written); the joint build is split into
 * chunks (`splitting`) so the code the handlers share is written once. About 90 builds of a
 * handler each took 35 s; the three joint builds take about 10.
 */
type Inputs = Metafile['inputs'];
type Flags = { browser?: boolean; validators?: boolean };
const present = (file: string) => existsSync(join(REPO_ROOT, file));
const keyOf = (flags: Flags) => `browser=${!!flags.browser} validators=${!!flags.validators}`;
/** Every handler and options a check below builds with. */
const wanted: Array<[string, Flags]> = [
  ...routes.flatMap((r): Array<[string, Flags]> => [[r.handler, {}], [r.handler, { validators: r.validators }]]),
  ...workers.map((w): [string, Flags] => [w.handler, { browser: w.browser }]),
].filter(([h]) => present(h));
const builds = new Map<string, Promise<Inputs>>();
function bundleMeta(handler: string, flags: Flags = {}): Promise<Pick<Metafile, 'inputs'>> {
  const key = keyOf(flags);
  let all = builds.get(key);
  if (!all) builds.set(key, (all = buildAll(flags, [...new Set(wanted.filter(([, f]) => keyOf(f) === key).map(([h]) => h))])));
  return all.then((inputs) => ({ inputs: reachable(inputs, handler) }));
}

async function buildAll(flags: Flags, handlers: string[]): Promise<Inputs> {
  const opts = bundlingOptions({ browser: !!flags.browser, validators: !!flags.validators });
  const result = await build({
    entryPoints: handlers.map((h) => join(REPO_ROOT, h)),
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: opts.target,
    banner: { js: opts.banner! },
    external: [...(opts.externalModules ?? []), ...(opts.nodeModules ?? [])],
    outdir: join(REPO_ROOT, '.tmp-bundles'),
    splitting: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile!.inputs;
}

/** The inputs reachable from `handler`'s entry (keys relative to REPO_ROOT, as esbuild writes them). */
function reachable(inputs: Inputs, handler: string): Inputs {
  const out: Inputs = {};
  const queue = [handler];
  for (let f = queue.pop(); f !== undefined; f = queue.pop()) {
    if (out[f] || !inputs[f]) continue;
    out[f] = inputs[f];
    for (const i of inputs[f].imports) if (!i.external) queue.push(i.path);
  }
  if (!out[handler]) throw new Error(`${handler} is not among the build's inputs`);
  return out;
}
const bundleInputs = async (handler: string, browser = false) => Object.keys((await bundleMeta(handler, { browser })).inputs);
/** Packages a bundle leaves to the runtime (external imports and requires), by package name. */
const externalPackages = (m: Pick<Metafile, 'inputs'>) =>
  new Set(Object.values(m.inputs).flatMap((i) => i.imports.filter((x) => x.external).map((x) => x.path.split('/').slice(0, x.path.startsWith('@') ? 2 : 1).join('/'))));
const VALIDATOR_CODE = new RegExp(`node_modules/(${VALIDATOR_NODE_MODULES.join('|')})/`);

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
