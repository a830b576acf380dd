import { report, type BenchResult } from './stats.js';
import { benchHotPath } from './hot-path.bench.js';
import { benchQueries } from './queries.bench.js';
import { benchBundleSizes } from './bundle-sizes.bench.js';

/** `npm run bench`: every benchmark prints a ratio against a baseline measured in the same run. */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const only = process.argv[2];
const suites: Record<string, () => Promise<BenchResult[]>> = {
  'hot-path': () => benchHotPath(),
  queries: () => benchQueries(),
  bundles: () => benchBundleSizes(),
};
const results: BenchResult[] = [];
for (const [name, fn] of Object.entries(suites)) {
  if (only && only !== name) continue;
  console.log(`running ${name}…`);
  results.push(...(await fn()));
}
report(results);
process.exit(0);
