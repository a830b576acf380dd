import type { ordinalCursorCodec } from '../cursor.js';
import { log } from '../log.js';
import type { Blobs } from '../../ports/blobs.js';
import type { ScrapeItem } from '../scrapers/types.js';
import type { CrawlFrontier, FrontierCounters, FrontierPage } from './frontier.js';

/** Blob key of an item too large for its page record. */
export const crawlItemKey = (tenantId: string, runId: string, ord: number) => `tenants/${tenantId}/runs/${runId}/pages/${String(ord).padStart(10, '0')}.json`;

/** Blob key of a batch's items (a JSON array), `first` the batch's first ordinal. */
export const crawlBatchKey = (tenantId: string, runId: string, first: number, id: string) => `tenants/${tenantId}/runs/${runId}/batches/${String(first).padStart(10, '0')}-${id}.json`;

/** Blobs of batch items read by one reader, by key: the pages of a batch share one read. */
type BatchCache = Map<string, Promise<ScrapeItem[] | undefined>>;

async function itemOf(blobs: Blobs, page: FrontierPage, batches: BatchCache): Promise<ScrapeItem | null> {
  if (page.state !== 'done') return null;
  if (page.item) return page.item as ScrapeItem;
  if (!page.item_blob) return null;
  if (page.item_at !== undefined) {
    let batch = batches.get(page.item_blob);
    if (!batch) {
      if (batches.size >= 16) batches.clear();
      const key = page.item_blob;
      batch = blobs.get('results', key).then((raw) => {
        // A recorded page whose items are gone is lost data, not an empty page: said loudly.
        if (!raw) log.error('a crawl batch of items is missing from the results bucket', { key });
        return raw ? (JSON.parse(Buffer.from(raw).toString('utf8')) as ScrapeItem[]) : undefined;
      });
      batches.set(page.item_blob, batch);
    }
    return (await batch)?.[page.item_at] ?? null;
  }
  const raw = await blobs.get('results', page.item_blob);
  if (!raw) log.error('a crawl item is missing from the results bucket', { key: page.item_blob });
  return raw ? (JSON.parse(Buffer.from(raw).toString('utf8')) as ScrapeItem) : null;
}

/**
 * A crawl's items in result order (the order URLs entered the crawl: start page, then the pages
 * it linked to, ...), cursor-paged by ordinal. Pages that failed, were skipped or are still
 * queued have no item and are passed over.
 */
export async function readCrawlItems(frontier: CrawlFrontier, blobs: Blobs, limit: number, cursor: string | undefined, codec: ReturnType<typeof ordinalCursorCodec>): Promise<{ data: ScrapeItem[]; next_cursor: string | null }> {
  let after = cursor ? codec.decode(cursor) - 1 : -1;
  const data: ScrapeItem[] = [];
  const batches: BatchCache = new Map();
  for (;;) {
    const { pages } = await frontier.pages({ afterOrd: after, limit: Math.min(200, Math.max(limit - data.length, 25)) });
    if (!pages.length) return { data, next_cursor: null };
    for (const p of pages) {
      after = p.ord;
      const item = await itemOf(blobs, p, batches);
      if (item) data.push(item);
      if (data.length >= limit) return { data, next_cursor: codec.encode(after + 1) };
    }
  }
}

/**
 * Every item of a crawl, one table page of records at a time (exports): memory stays at one page
 * (at most {@link CRAWL_EXPORT_PAGE} records and their items) whatever the crawl's size. A page
 * may yield no items (every record on it failed or was skipped).
 */
export async function* crawlItemPages(frontier: CrawlFrontier, blobs: Blobs): AsyncGenerator<ScrapeItem[]> {
  let after = -1;
  const batches: BatchCache = new Map();
  for (;;) {
    const { pages } = await frontier.pages({ afterOrd: after, limit: CRAWL_EXPORT_PAGE });
    if (!pages.length) return;
    const items: ScrapeItem[] = [];
    for (const p of pages) {
      after = p.ord;
      const item = await itemOf(blobs, p, batches);
      if (item) items.push(item);
    }
    yield items;
  }
}

/** Records read per table page by {@link crawlItemPages}. */
export const CRAWL_EXPORT_PAGE = 200;

/** Every item of a crawl, one at a time, read as {@link crawlItemPages} does. */
export async function* crawlItems(frontier: CrawlFrontier, blobs: Blobs): AsyncGenerator<ScrapeItem> {
  for await (const page of crawlItemPages(frontier, blobs)) yield* page;
}

/** API.md run `progress` of a crawl: done, queued, failed, the current rate and an ETA. */
export interface CrawlProgress {
  pages_done: number;
  pages_total: number | null;
  items: number;
  pages_queued: number;
  pages_failed: number;
  rate_per_s: number | null;
  eta_s: number | null;
}

/**
 * Progress from the frontier's counters. The rate is pages finished per second since the crawl
 * started; the ETA assumes that rate for what is queued (null until something finished).
 */
export function crawlProgress(c: FrontierCounters, now: Date): CrawlProgress {
  const finished = c.done + c.failed + c.skipped;
  const queued = Math.max(0, c.admitted - finished);
  const elapsed = Math.max(0.001, (Date.parse(c.finished_at ?? now.toISOString()) - Date.parse(c.started_at)) / 1000);
  const rate = finished > 0 ? finished / elapsed : null;
  return {
    pages_done: c.done + c.failed,
    pages_total: c.finished_at ? c.done + c.failed : null,
    items: c.done,
    pages_queued: queued,
    pages_failed: c.failed,
    rate_per_s: rate === null ? null : Math.round(rate * 100) / 100,
    eta_s: c.finished_at ? 0 : rate && queued ? Math.ceil(queued / rate) : null,
  };
}
