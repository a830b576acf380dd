import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlFrontier, type SliceRef } from '../../../functions/core/crawl/frontier.js';
import { processSlice, SLICE_SIZE, type SliceEnv } from '../../../functions/core/crawl/crawl-slice.js';
import { siteCrawl, type SiteCrawlInput } from '../../../functions/core/scrapers/site-crawl.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from '../foundation/stores.js';
import { startSitemapSite, type SitemapSite } from '../../fixtures/sitemap-site.js';
import { makeHarness, type Harness } from '../engine/harness.js';

// Seeding a distributed crawl from sitemaps, killed half-way: the start page's slice dies after
// the first seed slice was recorded but before its message was sent. The redelivered slice
// (after the start page's lease ran out) reads the sitemaps again, picks up its own earlier
// claims and re-sends the orphaned slice record: every sitemap page is crawled once, none lost.
let table: Table;
let stores: EmbeddedStores;
let site: SitemapSite;
let h: Harness;
/** Sitemap-only pages: more than a slice holds, so the start page sends at least two slices. */
const HIDDEN = SLICE_SIZE + 30;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
  site = await startSitemapSite({ hidden: HIDDEN });
  h = makeHarness({ fixturePort: site.port });
});
afterAll(async () => {
  await h?.close();
  await site?.close();
  await stores?.close();
});

describe('sitemap seeding of a distributed crawl', () => {
  it('a kill between recording and sending a seed slice loses no page and fetches none twice', async () => {
    const start = `${site.baseUrl}/`;
    const input = siteCrawl.inputSchema.parse({ start_url: start, max_pages: 200, max_depth: 2, engine: 'http', concurrency: 2 }) as SiteCrawlInput;
    const f = new CrawlFrontier(table, 'ten_seed', 'run_seed_kill');
    let clock = Date.parse('2026-11-25T10:00:00.000Z');
    const queue: SliceRef[] = [];
    let sends = 0;
    const dying = async (s: SliceRef) => {
      // The start page's links and sitemap seeds go out as slices after one batch write; the
      // process dies at the second send, with slices recorded and not sent.
      if (++sends === 2) throw new Error('killed');
      queue.push(s);
    };
    const live = async (s: SliceRef) => void queue.push(s);
    const env = (holder: string, send: SliceEnv['send']): SliceEnv => ({
      frontier: f, engine: h.engine, input, send, putBlob: async (ord) => `blob/${ord}`, now: () => new Date(clock),
      remainingMs: () => 600_000, shouldStop: () => false, holder, reserveMs: 1000, leaseMs: 60_000,
    });
    const [first] = await f.init(start, input.max_pages, new Date(clock));
    await expect(processSlice(env('killed', dying), first!, start)).rejects.toThrow('killed');
    clock += 120_000; // the dead worker's lease on the start page ran out
    await processSlice(env('again', live), { ...first!, redelivered: true }, start);
    for (let i = 0; queue.length && i < 500; i++) await processSlice(env(`w${i}`, live), queue.shift()!, start);

    const { pages } = await f.pages({ limit: 500 });
    const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));
    const hidden = Array.from({ length: HIDDEN }, (_, i) => `/hidden/${i + 1}`);
    for (const p of [...hidden, '/gz/1', '/gz/2', '/gz/3', '/text/1', '/text/2']) {
      expect(byPath.get(p)?.state, p).toBe('done');
      expect((byPath.get(p)!.item as { data: { via?: string } }).data.via, p).toBe('sitemap');
      expect(site.hits(p), p).toBe(1);
    }
    expect(byPath.get('/linked/2')?.state).toBe('done');
    expect((byPath.get('/linked/2')!.item as { data: { via?: string } }).data.via).toBeUndefined();
    expect(byPath.get('/private/secret')?.state).toBe('skipped'); // robots.txt, page by page
    expect(new Set(pages.map((p) => p.url)).size).toBe(pages.length);
    expect(pages.every((p) => p.state !== 'queued')).toBe(true);
    expect(await f.hasOpenSlices()).toBe(false);
  });
});
