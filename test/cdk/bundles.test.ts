import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { routes, workers } from '../../functions/routes.js';
import { BROWSER_NODE_MODULES, bundlingOptions, REPO_ROOT } from '../../lib/gleaner-function.js';

// The stack tests skip bundling; this builds each handler the way NodejsFunction does (same
// format, target and externals) and inspects what went in. Rows whose handler file does not
// exist yet are skipped here (a separate test checks that every handler file exists).

/** Nothing from a browser stack may reach an API Lambda: cold starts and the 250 MB limit. */
const BROWSER_PACKAGES = /node_modules\/(puppeteer|puppeteer-core|chromium-bidi|@sparticuz\/chromium|@puppeteer\/[^/]+)\//;

async function bundleInputs(handler: string, browser = false): Promise<string[]> {
  const opts = bundlingOptions({ browser });
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
  return Object.keys((result.metafile as Metafile).inputs);
}

const present = (file: string) => existsSync(join(REPO_ROOT, file));

describe('API handler bundles', () => {
  for (const r of routes) {
    it.skipIf(!present(r.handler))(`${r.id} (${r.handler}) bundles without Chromium or puppeteer`, async () => {
      const offending = (await bundleInputs(r.handler)).filter((i) => BROWSER_PACKAGES.test(i));
      expect(offending.slice(0, 5), `${offending.length} browser-stack modules in the bundle`).toEqual([]);
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
