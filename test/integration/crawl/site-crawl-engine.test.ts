import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlFrontier, type SliceRef } from '../../../functions/core/crawl/frontier.js';
import { processSlice, type SliceEnv } from '../../../functions/core/crawl/crawl-slice.js';
import { crawlItems } from '../../../functions/core/crawl/crawl-results.js';
import { siteCrawl } from '../../../functions/core/scrapers/registry.js';
import type { Blobs } from '../../../functions/ports/blobs.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { makeHarness } from '../engine/harness.js';
import { memoryStores } from '../foundation/stores.js';

/**
 * site-crawl through the real engine (egress guard, robots, fetch, extraction) on the fixture
 * site, run the one way it runs: slices of a durable frontier (moved here from the engine tests of
 * the in-process crawl, which is gone). One worker takes slices first in, first out, as a queue.
 */
let site: FixtureSite;
let table: Table;
let stores: EmbeddedStores;
beforeAll(async () => {
  site = await startFixtureSite();
  ({ table, stores } = await memoryStores());
});
afterAll(async () => {
  await stores?.close();
  await site?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;
const paths = (items: { url: string }[]) => items.map((i) => new URL(i.url).pathname + new URL(i.url).search);
const noBlobs: Blobs = { put: async () => undefined, get: async () => undefined, delete: async () => undefined };
let seq = 0;

async function crawl(raw: Record<string, unknown>, opts: { stopAfterPages?: number } = {}) {
  // Links only: the request counts below are of pages (sitemap seeding has tests of its own).
  const input = siteCrawl.inputSchema.parse({ start_url: url('/crawl/'), engine: 'http', sitemap: 'skip', ...raw });
  const hs = makeHarness({ fixturePort: site.port });
  const f = new CrawlFrontier(table, 'ten_engine', `run_engine_${++seq}`);
  const queue: SliceRef[] = [];
  const env: SliceEnv = {
    frontier: f, engine: hs.engine, input, send: async (s) => void queue.push(s), putBlob: async (ord) => `blob/${ord}`,
    now: () => new Date(), remainingMs: () => 600_000, holder: 'w', reserveMs: 1000,
    shouldStop: () => opts.stopAfterPages !== undefined && hs.engine.stats().requests >= opts.stopAfterPages,
  };
  try {
    queue.push(...(await f.init(input.start_url, input.max_pages, new Date())));
    let finished = 0;
    for (let s = queue.shift(); s; s = queue.shift()) if ((await processSlice(env, s, input.start_url)).crawlFinished) finished++;
    const items = [];
    for await (const it of crawlItems(f, noBlobs)) items.push(it);
    return { items, finished, counters: (await f.counters())!, stats: hs.engine.stats(), logs: hs.logs };
  } finally {
    await hs.close();
  }
}

describe('site-crawl on the slice path, real engine', () => {
  it('items carry content_type', async () => {
    const { items } = await crawl({ max_depth: 1, max_pages: 3 });
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect((item as { data: { content_type?: string } }).data.content_type).toBe('text/html');
  });

  it('crawls the whole tree, shallowest first, same-site only, each page once; robots skips counted', async () => {
    const before = site.hits();
    // include /** : the whole site (by default a crawl started at /crawl/ stays under /crawl/).
    const { items, finished, counters, stats, logs } = await crawl({ max_depth: 3, max_pages: 100, include: ['/**'] });
    const seen = paths(items);
    // 1 root + 4 + 8 + 16 pages; external links and /private/ never fetched.
    expect(seen).toHaveLength(29);
    expect(new Set(seen).size).toBe(29);
    expect(finished).toBe(1);
    expect(counters).toMatchObject({ done: 29, skipped: 1, failed: 0 });
    expect(seen[0]).toBe('/crawl/');
    expect(new Set(seen.slice(1, 5))).toEqual(new Set(['/crawl/a', '/crawl/b', '/crawl/c', '/crawl/skip']));
    const depths = items.map((i) => i.data.depth as number);
    expect([...depths].sort((a, b) => a - b)).toEqual(depths); // breadth-first result order
    expect(Math.max(...depths)).toBe(3);
    expect(stats.robots_skipped).toBe(1);
    expect(site.hits('/private/hidden')).toBe(0);
    expect(logs.find((l) => l.decision === 'robots_skipped')?.url).toBe(url('/private/hidden'));
    expect(logs.every((l) => l.url.startsWith(site.baseUrl))).toBe(true);
    // Every fetch is one fixture hit (plus one robots.txt).
    expect(site.hits() - before).toBe(29 + 1);
  });

  it('by default stays in the start URL\'s section and goes deep enough to finish it (29 of 29 pages; depth 2 reached 13)', async () => {
    const { items, stats, counters } = await crawl({});
    const seen = paths(items);
    expect(seen).toHaveLength(29);
    expect(seen.every((p) => p.startsWith('/crawl/'))).toBe(true);
    expect(counters).toMatchObject({ done: 29, failed: 0 });
    // /private/hidden (outside the section) is not even asked of robots.txt.
    expect(stats.robots_skipped).toBe(0);
    expect(paths((await crawl({ max_depth: 2 })).items)).toHaveLength(13);
  });

  it('stops at max_depth', async () => {
    const { items } = await crawl({ max_depth: 1 });
    expect(paths(items).sort()).toEqual(['/crawl/', '/crawl/a', '/crawl/b', '/crawl/c', '/crawl/skip']);
  });

  it('stops at max_pages', async () => {
    const { items, counters } = await crawl({ max_depth: 3, max_pages: 3 });
    expect(items).toHaveLength(3);
    expect(counters.admitted).toBe(3);
  });

  it('applies include and exclude patterns (globs and regex)', async () => {
    // A page outside the filter is not fetched, so its links are not followed: include /crawl/a itself.
    const { items } = await crawl({ max_depth: 3, include: ['/crawl/a', '/crawl/a/**', '/crawl/b'], exclude: ['/\\/y$/'] });
    expect(paths(items).sort()).toEqual(['/crawl/', '/crawl/a', '/crawl/a/1', '/crawl/a/1/x', '/crawl/a/2', '/crawl/a/2/x', '/crawl/b']);
  });

  it('stops when the run says so, and the crawl still ends', async () => {
    const { items, finished } = await crawl({ concurrency: 1, max_depth: 3 }, { stopAfterPages: 2 });
    expect(items).toHaveLength(2);
    expect(finished).toBe(1);
  });
});
