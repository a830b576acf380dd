import { join } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { bundlingOptions, REPO_ROOT } from '../lib/gleaner-function.js';

/**
 * The esbuild options CDK's NodejsFunction derives from our `bundlingOptions()` (aws-lambda-nodejs
 * `Bundling.createBundlingCommand`: `--bundle --target --platform=node --format --outfile=index.mjs
 * --minify --sourcemap --sources-content=false --external:… --banner:js=…`), so a benchmark
 * measures the bundle that is deployed, not an approximation of it.
 */
export function cdkEsbuildOptions(entry: string, outdir: string, opts: { browser?: boolean; validators?: boolean } = {}): BuildOptions {
  const b: BundlingOptions = bundlingOptions(opts);
  const sourcemap = b.sourceMapMode ?? b.sourceMap;
  return {
    entryPoints: [join(REPO_ROOT, entry)],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: 'node',
    target: b.target,
    format: b.format === 'esm' ? 'esm' : 'cjs',
    outfile: join(outdir, b.format === 'esm' ? 'index.mjs' : 'index.js'),
    minify: b.minify,
    sourcemap: sourcemap ? (b.sourceMapMode && b.sourceMapMode !== 'default' ? (b.sourceMapMode as BuildOptions['sourcemap']) : true) : false,
    sourcesContent: b.sourcesContent ?? true,
    // CDK marks `nodeModules` external too (they are installed next to the bundle).
    external: [...(b.externalModules ?? []), ...(b.nodeModules ?? [])],
    banner: b.banner ? { js: b.banner } : undefined,
    footer: b.footer ? { js: b.footer } : undefined,
    define: b.define,
    loader: b.loader as BuildOptions['loader'],
    keepNames: b.keepNames,
    mainFields: b.mainFields,
    inject: b.inject,
    metafile: true,
    logLevel: 'silent',
  };
}

export interface CdkBundle {
  /** The bundle file (index.mjs) */
  file: string;
  /** Bytes of the JavaScript output (source map excluded). */
  bytes: number;
  metafile: Metafile;
}

/** Bundle one function as CDK does. With `outdir` the files are written (to run them), else kept in memory. */
export async function cdkBundle(entry: string, outdir?: string, opts: { browser?: boolean; validators?: boolean } = {}): Promise<CdkBundle> {
  const o = cdkEsbuildOptions(entry, outdir ?? join(REPO_ROOT, '.tmp-bundle'), opts);
  const r = await build({ ...o, write: outdir !== undefined });
  const js = Object.entries(r.metafile!.outputs).find(([f]) => !f.endsWith('.map'))!;
  return { file: o.outfile!, bytes: js[1].bytes, metafile: r.metafile! };
}

/** The npm package (or repo folder) an esbuild input belongs to: `undici`, `@aws-sdk/core`, `functions/core/engine`. */
export function inputOwner(input: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (m) return m[1]!;
  return input.split('/').slice(0, 3).join('/');
}

/**
 * Inputs that are engine code or its HTTP/HTML stack: none may be in an API function's bundle.
 * core/engine's contract modules (field-spec.ts, types.ts: zod schemas and constants, no imports
 * of runtime code) are allowed; cheerio's slim build (selector validation) is allowed, its full
 * entry (which pulls undici, parse5 and iconv-lite for fromURL and encoding sniffing) is not.
 */
export const ENGINE_INPUT =
  /node_modules\/(undici|iconv-lite|encoding-sniffer|parse5[^/]*|@mixmark-io\/domino|turndown|node-html-markdown|puppeteer|puppeteer-core|chromium-bidi|@puppeteer\/[^/]+|@sparticuz\/chromium|robots-parser)\/|node_modules\/cheerio\/dist\/esm\/(index|load-parse)\.js$|functions\/core\/engine\/(?!(field-spec|types)\.ts$)/;
