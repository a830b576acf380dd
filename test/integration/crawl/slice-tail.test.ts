import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlFrontier, type SliceRef } from '../../../functions/core/crawl/frontier.js';
import { processSlice, type SliceEnv } from '../../../functions/core/crawl/crawl-slice.js';
import type { Engine } from '../../../functions/core/engine/pipeline.js';
import type { PageResult } from '../../../functions/core/engine/types.js';
import type { SiteCrawlInput } from '../../../functions/core/scrapers/site-crawl.js';
import type { Item, Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from '../foundation/stores.js';

/**
 * A slice's tail: once its last URL has started, the pages already finished are written while
 * its last pages are fetched, so what is left to write after its last page (when its invocation
 * has no page in flight) is at most `concurrency` pages, not a whole batch (issue 31: a third of
 * the slices running on the crawl bench were in that tail). The same pages are recorded either way.
 */
let table: Table;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

const N = 12;
const CONCURRENCY = 4;
const url = (i: number) => `https://site.test/p/${i}`;
const page = (u: string, links: string[]): PageResult => ({
  url: u, final_url: u, status_code: 200, engine_used: 'http', fetched_at: '2026-11-28T10:00:00.000Z', title: u, markdown: `# ${u}`, text: u, links,
  metadata: { title: null, description: null, canonical: null, lang: null, og: {}, author: null, published_at: null, modified_at: null, site_name: null, language: null, image: null, type: null },
});
const input: SiteCrawlInput = { start_url: url(0), max_pages: 1000, max_depth: 20, include: [], exclude: [], engine: 'http', concurrency: CONCURRENCY };

describe('a slice writes what finished once its last URL has started', () => {
  it('leaves at most `concurrency` pages to write after its last page', async () => {
    const f = new CrawlFrontier(table, 'ten_tail', 'run_tail');
    const sent: SliceRef[] = [];
    // Page records (ORD#) in each batch write, in order.
    const batches: number[] = [];
    const writeBatch = f.writeBatch.bind(f);
    f.writeBatch = async (items: Item[]) => {
      const pages = items.filter((i) => String(i.sk).startsWith('ORD#')).length;
      if (pages) batches.push(pages);
      return writeBatch(items);
    };
    // Each page answers a little after it was asked for, so pages finish one by one.
    const engine = { scrapePage: async (u: string) => (await new Promise((r) => setTimeout(r, 2)), page(u, u === url(0) ? Array.from({ length: N }, (_, i) => url(i + 1)) : [])) } as unknown as Engine;
    const env = (holder: string): SliceEnv => ({
      frontier: f, engine, input, send: async (s) => void sent.push(s), putBlob: async (ord) => `blob/${ord}`,
      now: () => new Date(), remainingMs: () => 600_000, shouldStop: () => false, holder, reserveMs: 1000,
    });
    const [start] = await f.init(input.start_url, input.max_pages, new Date());
    await processSlice(env('w0'), start!, input.start_url);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.urls).toHaveLength(N);
    batches.length = 0;
    const out = await processSlice(env('w1'), sent[0]!, input.start_url);
    expect(out.fetched).toBe(N);
    // Every page recorded once, in more than one write; the last (the tail's) holds at most
    // `concurrency` pages (without the early write: one write of all N after the last page).
    expect(batches.reduce((a, b) => a + b, 0)).toBe(N);
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.at(-1)!).toBeLessThanOrEqual(CONCURRENCY);
    expect(out.counters?.done).toBe(N + 1);
  });

  it('says when its pages are done, before its last write, so what served them closes during the tail', async () => {
    const f = new CrawlFrontier(table, 'ten_tail', 'run_tail_done');
    const events: string[] = [];
    const writeBatch = f.writeBatch.bind(f);
    f.writeBatch = async (items: Item[]) => {
      events.push('write');
      return writeBatch(items);
    };
    const sent: SliceRef[] = [];
    const engine = { scrapePage: async (u: string) => (await new Promise((r) => setTimeout(r, 2)), events.push('page'), page(u, u === url(0) ? Array.from({ length: N }, (_, i) => url(i + 1)) : [])) } as unknown as Engine;
    const env = (holder: string): SliceEnv => ({
      frontier: f, engine, input, send: async (s) => void sent.push(s), putBlob: async (ord) => `blob/${ord}`,
      now: () => new Date(), remainingMs: () => 600_000, shouldStop: () => false, holder, reserveMs: 1000,
      onPagesDone: () => void events.push('pages done'),
    });
    const [start] = await f.init(input.start_url, input.max_pages, new Date());
    await processSlice(env('w0'), start!, input.start_url);
    events.length = 0;
    await processSlice(env('w1'), sent[0]!, input.start_url);
    // Once, after the slice's last page and before its last write.
    expect(events.filter((e) => e === 'pages done')).toHaveLength(1);
    expect(events.lastIndexOf('page')).toBeLessThan(events.indexOf('pages done'));
    expect(events.indexOf('pages done')).toBeLessThan(events.lastIndexOf('write'));
  });
});
