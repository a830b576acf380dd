import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { routes, workers } from '../functions/routes.js';
import { bundlingOptions, REPO_ROOT } from '../lib/gleaner-function.js';
import type { BenchResult } from './stats.js';

const BROWSER = /node_modules\/(puppeteer|puppeteer-core|chromium-bidi|@sparticuz\/chromium|@puppeteer\/[^/]+)\//;

async function bundle(handler: string, browser: boolean, validators?: boolean) {
  const opts = bundlingOptions({ browser, validators });
  const r = await build({
    entryPoints: [join(REPO_ROOT, handler)], absWorkingDir: REPO_ROOT, bundle: true, platform: 'node', format: 'esm', minify: true,
    target: opts.target, banner: { js: opts.banner! }, external: [...(opts.externalModules ?? []), ...(opts.nodeModules ?? [])],
    write: false, metafile: true, logLevel: 'silent',
  });
  const bytes = r.outputFiles.reduce((n, f) => n + f.contents.byteLength, 0);
  const browserInputs = Object.keys((r.metafile as Metafile).inputs).filter((i) => BROWSER.test(i)).length;
  return { bytes, browserInputs };
}

/** Bundle size of every Lambda (minified, as deployed) and proof that API bundles carry no browser stack. */
export async function benchBundleSizes(): Promise<BenchResult[]> {
  const rows: Array<{ fn: string; kb: number; browser: number }> = [];
  const seen = new Set<string>();
  for (const r of routes) {
    if (seen.has(r.handler)) continue;
    seen.add(r.handler);
    const b = await bundle(r.handler, false, r.validators);
    rows.push({ fn: `${r.handler.replace('functions/', '')}${r.validators ? ' (+ re2js, cheerio as node_modules)' : ''}`, kb: b.bytes / 1024, browser: b.browserInputs });
  }
  for (const w of workers) {
    const b = await bundle(w.handler, Boolean(w.browser));
    rows.push({ fn: `${w.handler.replace('functions/', '')}${w.browser ? ' (+ @sparticuz/chromium as node_modules)' : ''}`, kb: b.bytes / 1024, browser: b.browserInputs });
  }
  console.log('\n| function | bundle (KiB, minified) | browser-stack modules inlined |\n|---|---|---|');
  for (const r of rows) console.log(`| ${r.fn} | ${r.kb.toFixed(0)} | ${r.browser} |`);
  const api = rows.slice(0, seen.size);
  const largest = Math.max(...api.map((r) => r.kb));
  const median = [...api.map((r) => r.kb)].sort((a, b) => a - b)[Math.floor(api.length / 2)]!;
  const clean = api.every((r) => r.browser === 0);
  return [{ name: 'API bundles free of Chromium/puppeteer; largest vs median API bundle', measured: `largest ${largest.toFixed(0)} KiB`, baseline: `median ${median.toFixed(0)} KiB`, ratio: largest / median, target: 'no browser modules', pass: clean }];
}
