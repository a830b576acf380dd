import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlFrontier, type FrontierCounters, type SliceRef } from '../../../functions/core/crawl/frontier.js';
import { processSlice, type SliceEnv } from '../../../functions/core/crawl/crawl-slice.js';
import type { Engine } from '../../../functions/core/engine/pipeline.js';
import type { PageResult } from '../../../functions/core/engine/types.js';
import type { SiteCrawlInput } from '../../../functions/core/scrapers/site-crawl.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from '../foundation/stores.js';

// Issue 29: a crawl's progress.pages_done moved only when a whole slice finished (50 pages), so a
// slow slice showed 9 pages done while 13 items were readable. A slice now adds what it stored
// to the crawl's counters as it goes (at most once a second of its clock), and nothing twice.

let table: Table;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

const N = 49;
const url = (i: number) => `https://site.test/p/${i}`;
const page = (u: string): PageResult => {
  const i = Number(u.split('/').pop());
  const links = i === 0 ? Array.from({ length: N }, (_, k) => url(k + 1)) : [];
  return { url: u, final_url: u, status_code: 200, engine_used: 'http', fetched_at: '2026-11-23T10:00:00.000Z', title: `Page ${i}`, markdown: `# ${i}`, text: `${i}`, links, metadata: { title: null, description: null, canonical: null, lang: null, og: {}, author: null, published_at: null, modified_at: null, site_name: null, language: null, image: null, type: null } };
};
const input: SiteCrawlInput = { start_url: url(0), max_pages: 1000, max_depth: 1, include: [], exclude: [], engine: 'http', concurrency: 1 };

describe('crawl slice progress', () => {
  it('adds the pages a slice stored to the counters before the slice ends, and counts each page once', async () => {
    const f = new CrawlFrontier(table, 'ten_p', 'run_progress_1');
    let clock = Date.parse('2026-11-23T10:00:00.000Z');
    const queue: SliceRef[] = [];
    let fetched = 0;
    const pushes: { done: number; fetched: number }[] = [];
    let pushed: () => void = () => undefined;
    const firstPush = new Promise<void>((r) => (pushed = r));
    // Each page takes 100 ms of the slice's clock: ten pages take a second (one push). Page 40
    // waits for the first push (or 5 s, so a slice that never pushes fails the test, not hangs it).
    const engine = {
      scrapePage: async (u: string) => {
        if (u === url(40)) await Promise.race([firstPush, new Promise((r) => setTimeout(r, 5_000))]);
        clock += 100;
        fetched++;
        return page(u);
      },
    } as unknown as Engine;
    const env = (holder: string): SliceEnv => ({
      frontier: f, engine, input, send: async (s) => void queue.push(s), putBlob: async (ord) => `blob/${ord}`,
      now: () => new Date(clock), remainingMs: () => 600_000, shouldStop: () => false, holder, reserveMs: 1000,
      onProgress: async (c: FrontierCounters) => void (pushes.push({ done: c.done, fetched }), pushed()),
    });
    for (const s of await f.init(url(0), 1000, new Date(clock))) queue.push(s);
    await processSlice(env('a'), queue.shift()!, url(0));
    const big = queue.shift()!;
    expect(big.urls).toHaveLength(N);
    const out = await processSlice(env('b'), big, url(0));
    // While the 49-page slice was still fetching, the counters already held the pages it stored
    // in its first second (10 pages of 100 ms, each written as it finished, plus the start page).
    const mid = pushes.find((p) => p.fetched < 1 + N);
    expect(mid?.done).toBeGreaterThanOrEqual(10);
    expect(mid!.done).toBeLessThan(1 + N);
    // At the end every page counts exactly once (the pushed part is not added again).
    expect(out.counters?.done).toBe(1 + N);
    expect((await f.counters())?.done).toBe(1 + N);
  });

  it('says its pages are done once, when none is in flight and none will start, before its last write and finish', async () => {
    const f = new CrawlFrontier(table, 'ten_p', 'run_pages_done');
    const queue: SliceRef[] = [];
    let inFlight = 0;
    let fetched = 0;
    const calls: { fetched: number; inFlight: number }[] = [];
    const engine = {
      scrapePage: async (u: string) => {
        inFlight++;
        await new Promise((r) => setTimeout(r, 2));
        inFlight--;
        fetched++;
        return page(u);
      },
    } as unknown as Engine;
    let clock = Date.parse('2026-11-23T10:00:00.000Z');
    const env = (holder: string): SliceEnv => ({
      frontier: f, engine, input: { ...input, concurrency: 4 }, send: async (s) => void queue.push(s), putBlob: async (ord) => `blob/${ord}`,
      now: () => new Date((clock += 10)), remainingMs: () => 600_000, shouldStop: () => false, holder, reserveMs: 1000,
      pagesDone: () => void calls.push({ fetched, inFlight }),
    });
    for (const s of await f.init(url(0), 1000, new Date(clock))) queue.push(s);
    await processSlice(env('a'), queue.shift()!, url(0));
    const big = queue.shift()!;
    calls.length = 0;
    const out = await processSlice(env('b'), big, url(0));
    expect(calls).toEqual([{ fetched: 1 + N, inFlight: 0 }]);
    expect(out.counters?.done).toBe(1 + N);
  });
});
