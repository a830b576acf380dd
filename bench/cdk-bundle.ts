import { join } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { bundlingOptions, REPO_ROOT, routeDefine } from '../lib/gleaner-function.js';

/**
 * The esbuild options of a deployed function's code: what CDK's NodejsFunction derives from our
 * `bundlingOptions()` (aws-lambda-nodejs `Bundling.createBundlingCommand`: `--bundle --target
 * --platform=node --format --minify --sourcemap --sources-content=false --external:…
 * --banner:js=…`), split into chunks as the function's `afterBundling` hook rebuilds it
 * (`splitBundleArgs` in lib/gleaner-function.ts: `index.mjs` and `<name>-<hash>.mjs` chunks in one
 * folder), so a benchmark measures the code that is deployed, not an approximation of it.
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
    outdir,
    splitting: true,
    entryNames: 'index',
    chunkNames: '[name]-[hash]',
    outExtension: { '.js': b.format === 'esm' ? '.mjs' : '.js' },
    minify: b.minify,
    sourcemap: sourcemap ? (b.sourceMapMode && b.sourceMapMode !== 'default' ? (b.sourceMapMode as BuildOptions['sourcemap']) : true) : false,
    sourcesContent: b.sourcesContent ?? true,
    // CDK marks `nodeModules` external too (they are installed next to the bundle).
    external: [...(b.externalModules ?? []), ...(b.nodeModules ?? [])],
    banner: b.banner ? { js: b.banner } : undefined,
    footer: b.footer ? { js: b.footer } : undefined,
    // The function's own route, as its afterBundling rebuild defines it (`routeDefine`).
    define: { ...b.define, ...routeDefine(entry) },
    loader: b.loader as BuildOptions['loader'],
    keepNames: b.keepNames,
    mainFields: b.mainFields,
    inject: b.inject,
    metafile: true,
    logLevel: 'silent',
  };
}

export interface CdkBundle {
  /** The entry file (index.mjs). */
  file: string;
  /** Bytes of all JavaScript output: the entry and every chunk (source maps excluded). */
  bytes: number;
  /** Bytes of the JavaScript a cold start reads: the entry and the chunks it imports statically. */
  initBytes: number;
  metafile: Metafile;
}

type Output = Metafile['outputs'][string];

/** The entry output and the chunks it imports statically, transitively: what Init loads. */
export function initOutputs(meta: Metafile): Array<[string, Output]> {
  const entry = Object.keys(meta.outputs).find((f) => /(^|\/)index\.m?js$/.test(f))!;
  const seen = new Map<string, Output>();
  const queue = [entry];
  while (queue.length) {
    const f = queue.shift()!;
    if (seen.has(f) || !meta.outputs[f]) continue;
    seen.set(f, meta.outputs[f]);
    for (const i of meta.outputs[f].imports) if (!i.external && i.kind === 'import-statement') queue.push(i.path);
  }
  return [...seen];
}

/** Bundle inputs with code in any output file (the entry or a chunk). */
export const bundledInputs = (meta: Metafile): string[] => [
  ...new Set(Object.entries(meta.outputs).flatMap(([, o]) => Object.entries(o.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f))),
];

/** Bundle one function as CDK does. With `outdir` the files are written (to run them), else kept in memory. */
export async function cdkBundle(entry: string, outdir?: string, opts: { browser?: boolean; validators?: boolean } = {}): Promise<CdkBundle> {
  const o = cdkEsbuildOptions(entry, outdir ?? join(REPO_ROOT, '.tmp-bundle'), opts);
  const r = await build({ ...o, write: outdir !== undefined });
  const js = Object.entries(r.metafile!.outputs).filter(([f]) => !f.endsWith('.map'));
  const init = initOutputs(r.metafile!);
  return {
    file: join(o.outdir!, 'index.mjs'),
    bytes: js.reduce((n, [, x]) => n + x.bytes, 0),
    initBytes: init.reduce((n, [, x]) => n + x.bytes, 0),
    metafile: r.metafile!,
  };
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
