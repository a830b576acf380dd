import { join } from 'node:path';

/**
 * Bundles the budget thread (functions/core/limits/budget-thread.ts, issue 27) next to the
 * handler as `budget-thread.mjs`, where the budget pool looks for it: functions that check
 * schemas or selectors, or run the engine, then bound that work with a worker thread as the
 * local server does (without it they run it inline under its static limits only).
 */
export const budgetThreadCommands = (inputDir: string, outputDir: string): string[] => [
  `"${join(inputDir, 'node_modules/.bin/esbuild')}" "${join(inputDir, 'functions/core/limits/budget-thread.ts')}" --bundle --platform=node --format=esm --target=node22 --minify ` +
    `--external:@aws-sdk/client-* --outfile="${join(outputDir, 'budget-thread.mjs')}" ` +
    `--banner:js="import { createRequire as __gleanerCreateRequire } from 'node:module'; const require = __gleanerCreateRequire(import.meta.url);"`,
];
