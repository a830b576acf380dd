import { spawnSync } from 'node:child_process';
import { report, type BenchResult } from './stats.js';
import { HEAP_FLAG } from '../functions/local/heap-bound.js';
import { benchHotPath } from './hot-path.bench.js';
import { benchQueries } from './queries.bench.js';
import { benchBundleSizes } from './bundle-sizes.bench.js';
import { benchColdStart } from './cold-start.bench.js';
import { benchCrawl } from './crawl.bench.js';
import { benchExport } from './export.bench.js';
import { benchSiteMap } from './site-map.bench.js';
import { benchFreshness } from './freshness.bench.js';
import { benchChanges } from './changes.bench.js';
import { benchSearch } from './search.bench.js';
import { benchLargePages } from './large-pages.bench.js';

/** `npm run bench`: every benchmark prints a ratio against a baseline measured in the same run. */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// The crawl bench hosts the local service in this process: give it the heap bound `npm start`
// gives the service (functions/local/heap-bound.ts), also when started as `npx tsx bench/run.ts`.
if (!process.execArgv.some((a) => a.startsWith('--max-old-space-size'))) {
  const again = spawnSync(process.execPath, [HEAP_FLAG, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}
const only = process.argv[2];
const suites: Record<string, () => Promise<BenchResult[]>> = {
  'hot-path': () => benchHotPath(),
  queries: () => benchQueries(),
  bundles: () => benchBundleSizes(),
  // GLEANER_BENCH_FILTER=<regex> limits it to some API handlers, GLEANER_BENCH_RUNS=<n> sets the rounds.
  'cold-start': () => benchColdStart(),
  // GLEANER_BENCH_CRAWL_PAGES=<n> sets the site size (default 10,000), GLEANER_BENCH_CRAWL_KILL_PAGES the kill arm's.
  crawl: () => benchCrawl(),
  // GLEANER_BENCH_EXPORT_ITEMS=<n> sets the crawl size (default 100,000).
  export: () => benchExport(),
  // GLEANER_BENCH_SITEMAP_URLS=<n> sets the first arm's size (default 10,000); GLEANER_BENCH_SITEMAP_ARMS=10k skips the 100,000 arm.
  'site-map': () => benchSiteMap(),
  // A cached POST /v1/scrape (max_age) against the same scrape uncached.
  freshness: () => benchFreshness(),
  // GLEANER_BENCH_CHANGES_PAGES=<n> sets the site size (default 40), GLEANER_BENCH_CHANGES_ROUNDS the rounds (default 8).
  changes: () => benchChanges(),
  // Issue 40: POST /v1/search scraping 10 results (50-400 ms pages, a 100 ms provider) vs the slowest page alone; GLEANER_BENCH_SEARCH_ROUNDS sets the rounds.
  search: () => benchSearch(),
  // A page's parse at about 1 MB against the same shape at about 20 KB, CPU per KB (markdown in pieces).
  'large-pages': async () => benchLargePages(),
  // The engine bench is its own script (it prints its table: http, browser, auto ratios).
  engine: async () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/engine.bench.ts'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('engine bench failed');
    return [];
  },
  // Main-content extraction: F1/precision/recall on the public benchmark and the corpus (its own script).
  extraction: async () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/extraction.bench.ts'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('extraction bench failed');
    return [];
  },
  // Typed data without a schema (issue 39): per-field precision/recall/F1 and CPU beside markdown (its own script).
  typed: async () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/typed.bench.ts'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('typed bench failed');
    return [];
  },
  // The dynamic web (issue 30): expected text found and consent text leaked, Gleaner vs PuppeteerCrawler + turndown.
  dynamic: async () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/dynamic.bench.ts'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('dynamic bench failed');
    return [];
  },
  // Gleaner vs Crawlee 3 (http, markdown, browser): its own script too, env PEERS_ARMS filters arms.
  // Main content on every kind of page: WCXB development pages + the article benchmark (its own script).
  content: async () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/content.bench.ts'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('content bench failed');
    return [];
  },
  peers: async () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/peers.bench.ts'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('peers bench missed a target');
    return [];
  },
};
const results: BenchResult[] = [];
for (const [name, fn] of Object.entries(suites)) {
  if (only && only !== name) continue;
  console.log(`running ${name}…`);
  results.push(...(await fn()));
}
report(results);
process.exit(0);
