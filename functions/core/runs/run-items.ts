import { decodeCursor, encodeCursor, ordinalCursorCodec, runItemsCursor, type CursorBinding } from '../cursor.js';
import { AppError } from '../errors.js';
import type { Blobs } from '../../ports/blobs.js';
import type { ScrapeItem } from '../scrapers/types.js';
import type { Mask } from '../scrapers/secret-redactor.js';
import type { RunRecord } from './run-record.js';
import type { Table } from '../../ports/table.js';
import { frontierFor } from '../crawl/frontier.js';
import { readCrawlItems } from '../crawl/crawl-results.js';

/** The frontier a crawl run's items live in. */
export const crawlFrontier = (table: Table, run: RunRecord) => frontierFor(table, run);

/** A results cursor is bound to its run's attempt: another run's (or attempt's) is `invalid_cursor`. */
const resultsBinding = (run: RunRecord, kind: 'run-items' | 'crawl-results'): CursorBinding => ({ list: kind, scope: `${run.tenant_id}/${run.id}/a${run.attempt}` });

/** A run's items in order, cursor-paged: from the crawl frontier for crawls, else from item pages. */
export async function readRunItems(store: { table: Table; blobs: Blobs }, run: RunRecord, limit: number, cursor?: string) {
  if (!run.crawl) return readItems(store.blobs, run, limit, cursor);
  return readCrawlItems(crawlFrontier(store.table, run), store.blobs, limit, cursor, ordinalCursorCodec(resultsBinding(run, 'crawl-results')));
}

export const ITEMS_PER_PAGE = 100;

/** Item pages are per attempt, so a retried run rewrites its own pages and never duplicates items. */
export const itemPageKey = (tenantId: string, runId: string, attempt: number, seq: number) =>
  `tenants/${tenantId}/runs/${runId}/a${attempt}/items-${String(seq).padStart(6, '0')}.json`;

/** How often a partly filled page is written, so a running run's first items can be read before its page fills. */
export const PARTIAL_PAGE_EVERY_MS = 1000;

/**
 * Buffers items and writes them to the results bucket in pages of ITEMS_PER_PAGE. While a page
 * fills, it is also written as it stands (at most every `partialEveryMs`) and counted in
 * item_pages, so GET /v1/runs/{id}/results shows items while the run is running, not only at the
 * end. Writes go through one chain in order: a late partial write can never overwrite the full
 * page that followed it.
 */
export class ItemWriter {
  private buf: ScrapeItem[] = [];
  private seq = 0;
  private lastPartial = 0;
  private chain: Promise<void> = Promise.resolve();
  /** A partial write due at the end of the current period (items arrived within it). */
  private trailing: NodeJS.Timeout | undefined;
  total = 0;
  constructor(
    private readonly blobs: Blobs,
    private readonly tenantId: string,
    private readonly runId: string,
    private readonly attempt: number,
    /** Called after each page is durable: persist item_pages/items on the run record. */
    private readonly onPage: (pages: number, items: number) => Promise<void>,
    /** Applied to every item before it is kept (a run's secret redactor): exports are built from these. */
    private readonly mask?: Mask,
    private readonly partialEveryMs = PARTIAL_PAGE_EVERY_MS,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async add(item: ScrapeItem): Promise<void> {
    this.buf.push(this.mask ? this.mask(item) : item);
    this.total++;
    if (this.buf.length >= ITEMS_PER_PAGE) await this.flush();
    else if (this.nowMs() - this.lastPartial >= this.partialEveryMs) await this.writePartial();
    else if (!this.trailing) {
      // Items that came within the period are written at its end, not only with the next item.
      this.trailing = setTimeout(() => {
        this.trailing = undefined;
        if (this.buf.length) void this.writePartial().catch(() => undefined);
      }, Math.max(0, this.partialEveryMs - (this.nowMs() - this.lastPartial)));
      this.trailing.unref?.();
    }
  }

  /** The page being filled, as it stands, under its final key; item_pages counts it. */
  private writePartial(): Promise<void> {
    this.lastPartial = this.nowMs();
    const snapshot = this.buf.slice();
    const seq = this.seq;
    const total = this.total;
    return this.enqueue(async () => {
      await this.blobs.put('results', itemPageKey(this.tenantId, this.runId, this.attempt, seq), JSON.stringify(snapshot));
      await this.onPage(seq + 1, total);
    });
  }

  async flush(): Promise<void> {
    clearTimeout(this.trailing);
    this.trailing = undefined;
    if (!this.buf.length) return this.chain;
    const page = this.buf;
    this.buf = [];
    const seq = this.seq++;
    const total = this.total;
    return this.enqueue(async () => {
      await this.blobs.put('results', itemPageKey(this.tenantId, this.runId, this.attempt, seq), JSON.stringify(page));
      await this.onPage(seq + 1, total);
    });
  }

  private enqueue(write: () => Promise<void>): Promise<void> {
    const next = this.chain.then(write);
    // A failed write fails its caller; later writes still run (the chain itself never rejects).
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/** Reads of a page caught while it is rewritten, before the call gives up (503, try again). */
const TORN_READS = 5;

/**
 * One stored page of a run's items (at most ITEMS_PER_PAGE); empty when the object is missing. A
 * running run rewrites its last page as it fills (ItemWriter's snapshots): S3 replaces an object
 * whole, but a store that overwrites in place (s3rver, the local stand-in) can be read half-written;
 * such a read is taken again, never answered as a 500.
 */
export async function readPage(blobs: Blobs, run: RunRecord, p: number): Promise<ScrapeItem[]> {
  for (let read = 1; ; read++) {
    const raw = await blobs.get('results', itemPageKey(run.tenant_id, run.id, run.attempt, p));
    if (!raw) return [];
    try {
      return JSON.parse(Buffer.from(raw).toString('utf8')) as ScrapeItem[];
    } catch {
      if (read >= TORN_READS) throw new AppError(503, 'results_busy', "The run's results are being written; try again shortly", undefined, { 'retry-after': '1' });
      await new Promise((r) => setTimeout(r, 20 * read));
    }
  }
}

/** Items in scrape order, cursor-paged. */
export async function readItems(blobs: Blobs, run: RunRecord, limit: number, cursor?: string) {
  const binding = resultsBinding(run, 'run-items');
  let { p, o } = cursor ? decodeCursor(binding, cursor, runItemsCursor) : { p: 0, o: 0 };
  const data: ScrapeItem[] = [];
  while (data.length < limit && p < run.item_pages) {
    const page = await readPage(blobs, run, p);
    const take = page.slice(o, o + (limit - data.length));
    data.push(...take);
    o += take.length;
    if (o >= page.length) {
      p++;
      o = 0;
    }
  }
  return { data, next_cursor: p < run.item_pages ? encodeCursor(binding, { p, o }) : null };
}
