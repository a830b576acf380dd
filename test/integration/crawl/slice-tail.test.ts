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
 * A slice's tail (issue 31): after its last page, its invocation has no page in flight until its
 * last records and its finish are written and the next slice starts (on the crawl bench about a
 * third of the slices running were there). The slice says when its pages are done, so what served
 * them (the engine, the host's slots, the raw log) is closed during those writes, not after them.
 */
let table: Table;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

const N = 12;
const url = (i: number) => `https://site.test/p/${i}`;
const page = (u: string, links: string[]): PageResult => ({
  url: u, final_url: u, status_code: 200, engine_used: 'http', fetched_at: '2026-11-28T10:00:00.000Z', title: u, markdown: `# ${u}`, text: u, links,
  metadata: { title: null, description: null, canonical: null, lang: null, og: {}, author: null, published_at: null, modified_at: null, site_name: null, language: null, image: null, type: null },
});
const input: SiteCrawlInput = { start_url: url(0), max_pages: 1000, max_depth: 20, include: [], exclude: [], engine: 'http', concurrency: 4 };

describe('a slice says when its pages are done', () => {
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
