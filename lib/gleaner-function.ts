import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Size } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { routes } from '../functions/routes.js';
// In a module of its own (no aws-cdk-lib): the test run's global setup builds the thread with it too.
import { budgetThreadCommands } from './budget-thread-bundle.js';

/** The repository root: handler paths in functions/routes.ts are relative to it. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Defines `require` inside the ESM bundle so bundled CommonJS dependencies that call
 * `require('node:...')` work. Only `require`: esbuild renames bundled top-level symbols that
 * clash with it, but it does not rename `__filename`/`__dirname`, so shimming those breaks any
 * ESM dependency that declares its own.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __gleanerCreateRequire } from 'node:module'; const require = __gleanerCreateRequire(import.meta.url);";

/**
 * The SDK clients, provided by the nodejs22.x runtime; never bundled. Puppeteer is deliberately NOT
 * here (see `bundlingOptions`). Small self-contained SDK helpers (@aws-sdk/util-dynamodb, 10 KiB, no
 * imports) are bundled: loading one more external package at init costs more than its code.
 */
export const EXTERNAL_MODULES = ['@aws-sdk/client-*'];

/**
 * Installed (not bundled) into browser function assets: it ships Brotli-compressed Chromium
 * binaries that it resolves relative to its own files at run time.
 */
export const BROWSER_NODE_MODULES = ['@sparticuz/chromium'];

/**
 * Installed (not bundled) into the assets of API functions that check selectors or URL patterns
 * (routes.ts `validators`): loaded with `require` on first use (core/lazy-engine.ts), so a cold
 * start does not parse their code.
 */
export const VALIDATOR_NODE_MODULES = ['re2js', 'cheerio'];

/** esbuild settings for every Gleaner function, the one place they are written down. */
export function bundlingOptions(opts: { browser?: boolean; validators?: boolean } = {}): BundlingOptions {
  const nodeModules = [...(opts.browser ? BROWSER_NODE_MODULES : []), ...(opts.validators ? VALIDATOR_NODE_MODULES : [])];
  return {
    format: OutputFormat.ESM,
    target: 'node22',
    banner: ESM_REQUIRE_BANNER,
    // Only the '@aws-sdk/client-*' packages are external. An API handler that (transitively) imports puppeteer-core
    // or @sparticuz/chromium must not be hidden behind an external: it either bundles (and
    // test/cdk/bundles.test.ts fails on it) or fails the build.
    externalModules: EXTERNAL_MODULES,
    nodeModules: nodeModules.length ? nodeModules : undefined,
    minify: true,
    sourceMap: true,
    sourcesContent: false,
    // Local esbuild only; Docker is never used.
    forceDockerBundling: false,
    // `nodeModules` runs `npm ci` in the asset directory: prefer the local npm cache so synth
    // works offline when the cache holds the packages.
    environment: nodeModules.length
      ? { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }
      : undefined,
  };
}

/** The handler that serves the web console; its bundle gets a copy of the console/ folder. */
export const CONSOLE_HANDLER = 'functions/http/console-get.ts';

/**
 * Copies console/ (static files, no build step) next to the bundled handler, where
 * functions/http/console-get.ts looks for it. Plain `node` so it works wherever esbuild runs.
 */
export const consoleAssetHooks = (): NonNullable<BundlingOptions['commandHooks']> => ({
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir: string, outputDir: string) => [
    `node -e "require('node:fs').cpSync(process.argv[1], process.argv[2], { recursive: true })" "${join(inputDir, 'console')}" "${join(outputDir, 'console')}"`,
  ],
});

/** The handler that serves the reference page and its renderer; its bundle gets a copy of Scalar's standalone script. */
export const DOCS_HANDLER = 'functions/http/docs-get.ts';

/** Copies the renderer next to the bundled handler, where functions/http/docs-get.ts looks for it. */
export const docsAssetHooks = (): NonNullable<BundlingOptions['commandHooks']> => ({
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir: string, outputDir: string) => [
    `node -e "require('node:fs').copyFileSync(process.argv[1], process.argv[2])" "${join(inputDir, 'node_modules/@scalar/api-reference/dist/browser/standalone.js')}" "${join(outputDir, 'api-reference.js')}"`,
  ],
});

/**
 * esbuild's options for a function's code, beside `bundlingOptions` (which CDK turns into its own
 * one-file build): the same target, format, banner, externals, minification and source maps, with
 * code splitting (issue 31, cold init). Every `import()` of our own code becomes a file of its own
 * beside `index.mjs` (`<name>-<hash>.mjs`, each with its map), so Lambda's Init phase reads and
 * compiles only the entry and the chunks it imports statically (about 40 KiB), not the ~200 KiB of
 * contracts, zod and core modules a handler loads on its first call. Chunks sit in the entry's
 * folder so `import.meta.url` names the same folder in each (console/, api-reference.js,
 * budget-thread.mjs and node_modules are found beside it).
 */
export function splitBundleArgs(opts: { browser?: boolean; validators?: boolean } = {}, handler?: string): string[] {
  const b = bundlingOptions(opts);
  return [
    ...Object.entries(handler ? routeDefine(handler) : {}).map(([k, v]) => `--define:${k}=${v}`),
    '--bundle', '--platform=node', '--format=esm', `--target=${b.target}`, '--minify', '--sourcemap', '--sources-content=false',
    '--splitting', '--entry-names=index', '--chunk-names=[name]-[hash]', '--out-extension:.js=.mjs',
    ...[...(b.externalModules ?? []), ...(b.nodeModules ?? [])].map((m) => `--external:${m}`),
    `--banner:js=${b.banner}`,
  ];
}

/**
 * The `GLEANER_ROUTE` define of a function whose handler serves exactly one route: that route's
 * row, written into its bundle (functions/http/pipeline/api.ts reads it), so the function does not
 * load the whole route table (84 rows, 14 KiB) at its first request (issue 31, cold init).
 * Nothing for a handler that serves several routes or none (workers): those import the table.
 */
export function routeDefine(handler: string): Record<string, string> {
  const own = routes.filter((r) => r.handler === handler);
  return own.length === 1 ? { GLEANER_ROUTE: JSON.stringify(own[0]) } : {};
}

/** A shell word: double-quoted, so globs (`*`, `[name]`) and the banner's quotes pass through as they are. */
const shellWord = (s: string) => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;

/**
 * Rebuilds the function's code split into chunks (`splitBundleArgs`) over the single file CDK's
 * NodejsFunction wrote (it bundles to one `--outfile`, which esbuild's splitting cannot use):
 * `index.mjs` and its map are replaced, the chunks are written beside them.
 */
export const splitBundleCommands = (inputDir: string, outputDir: string, handler: string, opts: { browser?: boolean; validators?: boolean } = {}): string[] => [
  [join(inputDir, 'node_modules/.bin/esbuild'), join(inputDir, handler), ...splitBundleArgs(opts, handler), `--outdir=${outputDir}`].map(shellWord).join(' '),
];

/** The command hooks of a function: its code split into chunks, its assets, and the budget thread where it bounds untrusted work. */
export function commandHooksFor(props: Pick<GleanerFunctionProps, 'handler' | 'browser' | 'validators'>): NonNullable<BundlingOptions['commandHooks']> {
  const assets = props.handler === CONSOLE_HANDLER ? consoleAssetHooks() : props.handler === DOCS_HANDLER ? docsAssetHooks() : undefined;
  const flags = { browser: props.browser, validators: props.validators };
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => [
      ...splitBundleCommands(inputDir, outputDir, props.handler, flags),
      ...(assets?.afterBundling(inputDir, outputDir) ?? []),
      ...(props.validators || props.browser ? budgetThreadCommands(inputDir, outputDir) : []),
    ],
  };
}

/** 'runs.create' -> 'RunsCreate': construct ids from row ids. */
export const pascal = (s: string): string =>
  s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep: string, c: string) => c.toUpperCase());

export interface GleanerFunctionProps {
  /** Handler module relative to the repo root (a routes/workers row's `handler`). */
  handler: string;
  memoryMb: number;
  timeoutSeconds: number;
  environment: Record<string, string>;
  /** Launches Chromium: bundles @sparticuz/chromium as a node module and runs on x86_64. */
  browser?: boolean;
  /** Checks selectors or URL patterns: VALIDATOR_NODE_MODULES installed beside the bundle. */
  validators?: boolean;
  description?: string;
  /**
   * A log group shared with other functions (the API's ~70 functions would otherwise spend 70
   * of the stack's 500 resources on log groups). Lambda prefixes each log stream with the
   * function name in a custom log group, so logs stay attributable.
   */
  logGroup?: ILogGroup;
}

/**
 * A NodejsFunction with Gleaner's defaults: nodejs22.x, ESM bundle, its own (or a shared) log group.
 * arm64, except browser functions: the @sparticuz/chromium npm package ships an x86-64
 * Chromium binary only (its arm64 build is a separate download), so they run on x86_64.
 */
export function gleanerFunction(scope: Construct, id: string, props: GleanerFunctionProps): NodejsFunction {
  const entry = join(REPO_ROOT, props.handler);
  if (!existsSync(entry)) {
    throw new Error(`${id}: handler file ${props.handler} does not exist (entry ${entry})`);
  }
  const logGroup =
    props.logGroup ??
    new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
  return new NodejsFunction(scope, id, {
    entry,
    handler: 'handler',
    projectRoot: REPO_ROOT,
    depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
    runtime: Runtime.NODEJS_22_X,
    architecture: props.browser ? Architecture.X86_64 : Architecture.ARM_64,
    memorySize: props.memoryMb,
    timeout: Duration.seconds(props.timeoutSeconds),
    // Chromium unpacks itself into /tmp.
    ephemeralStorageSize: props.browser ? Size.mebibytes(2048) : undefined,
    // No --enable-source-maps: it indexes the whole map at every cold start; stacks are mapped
    // when an error is logged instead (functions/adapters/aws/source-mapped-stacks.ts).
    environment: { ...props.environment },
    bundling: {
      ...bundlingOptions({ browser: props.browser, validators: props.validators }),
      commandHooks: commandHooksFor(props),
    },
    logGroup,
    description: props.description,
  });
}
