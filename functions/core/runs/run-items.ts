import { AppError, badRequest } from '../errors.js';
import type { Blobs } from '../../ports/blobs.js';
import type { ScrapeItem } from '../scrapers/types.js';
import type { RunRecord } from './run-record.js';
import type { Table } from '../../ports/table.js';
import { frontierFor } from '../crawl/frontier.js';
import { crawlItems, readCrawlItems } from '../crawl/crawl-results.js';

/** The frontier a crawl run's items live in. */
const crawlFrontier = (table: Table, run: RunRecord) => frontierFor(table, run);

/** A run's items in order, cursor-paged: from the crawl frontier for crawls, else from item pages. */
export async function readRunItems(store: { table: Table; blobs: Blobs }, run: RunRecord, limit: number, cursor?: string) {
  return run.crawl ? readCrawlItems(crawlFrontier(store.table, run), store.blobs, limit, cursor) : readItems(store.blobs, run, limit, cursor);
}

/** A run's export (NDJSON or CSV), bounded like {@link exportItems}; crawls are read one table page at a time. */
export async function exportRunItems(store: { table: Table; blobs: Blobs }, run: RunRecord, format: 'ndjson' | 'csv'): Promise<string> {
  if (!run.crawl) return exportItems(store.blobs, run, format);
  const items: ScrapeItem[] = [];
  let bytes = 0;
  for await (const it of crawlItems(crawlFrontier(store.table, run), store.blobs)) {
    bytes += JSON.stringify(it).length;
    if (bytes > EXPORT_MAX_BYTES) throw tooLarge(run);
    items.push(it);
  }
  return format === 'ndjson' ? items.map((i) => JSON.stringify(i)).join('\n') + (items.length ? '\n' : '') : toCsv(items);
}

const tooLarge = (run: RunRecord) =>
  new AppError(400, 'export_too_large', `The export is larger than ${EXPORT_MAX_BYTES} bytes; page through GET /v1/runs/${run.id}/results instead`);

export const ITEMS_PER_PAGE = 100;
const EXPORT_MAX_BYTES = 5 * 1024 * 1024;

/** Item pages are per attempt, so a retried run rewrites its own pages and never duplicates items. */
export const itemPageKey = (tenantId: string, runId: string, attempt: number, seq: number) =>
  `tenants/${tenantId}/runs/${runId}/a${attempt}/items-${String(seq).padStart(6, '0')}.json`;

/** Buffers items and writes them to the results bucket in pages of ITEMS_PER_PAGE. */
export class ItemWriter {
  private buf: ScrapeItem[] = [];
  private seq = 0;
  total = 0;
  constructor(
    private readonly blobs: Blobs,
    private readonly tenantId: string,
    private readonly runId: string,
    private readonly attempt: number,
    /** Called after each page is durable: persist item_pages/items on the run record. */
    private readonly onPage: (pages: number, items: number) => Promise<void>,
  ) {}

  async add(item: ScrapeItem): Promise<void> {
    this.buf.push(item);
    this.total++;
    if (this.buf.length >= ITEMS_PER_PAGE) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.buf.length) return;
    const page = this.buf;
    this.buf = [];
    await this.blobs.put('results', itemPageKey(this.tenantId, this.runId, this.attempt, this.seq), JSON.stringify(page));
    this.seq++;
    await this.onPage(this.seq, this.total);
  }
}

const encode = (p: number, o: number) => Buffer.from(JSON.stringify({ p, o })).toString('base64url');
function decode(c: string): { p: number; o: number } {
  try {
    const v = JSON.parse(Buffer.from(c, 'base64url').toString('utf8'));
    if (Number.isInteger(v.p) && Number.isInteger(v.o) && v.p >= 0 && v.o >= 0) return v;
  } catch {
    /* fall through */
  }
  throw badRequest('The cursor is not valid');
}

async function readPage(blobs: Blobs, run: RunRecord, p: number): Promise<ScrapeItem[]> {
  const raw = await blobs.get('results', itemPageKey(run.tenant_id, run.id, run.attempt, p));
  return raw ? (JSON.parse(Buffer.from(raw).toString('utf8')) as ScrapeItem[]) : [];
}

/** Items in scrape order, cursor-paged. */
export async function readItems(blobs: Blobs, run: RunRecord, limit: number, cursor?: string) {
  let { p, o } = cursor ? decode(cursor) : { p: 0, o: 0 };
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
  return { data, next_cursor: p < run.item_pages ? encode(p, o) : null };
}

/** All items as NDJSON or CSV (bounded: larger exports page through the JSON API). */
export async function exportItems(blobs: Blobs, run: RunRecord, format: 'ndjson' | 'csv'): Promise<string> {
  const items: ScrapeItem[] = [];
  let bytes = 0;
  for (let p = 0; p < run.item_pages; p++) {
    for (const it of await readPage(blobs, run, p)) {
      bytes += JSON.stringify(it).length;
      if (bytes > EXPORT_MAX_BYTES)
        throw new AppError(400, 'export_too_large', `The export is larger than ${EXPORT_MAX_BYTES} bytes; page through GET /v1/runs/${run.id}/results instead`);
      items.push(it);
    }
  }
  if (format === 'ndjson') return items.map((i) => JSON.stringify(i)).join('\n') + (items.length ? '\n' : '');
  return toCsv(items);
}

const cell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) || /^[=+\-@]/.test(s) ? `"${(/^[=+\-@]/.test(s) ? `'${s}` : s).replace(/"/g, '""')}"` : s;
};

/** CSV with url, fetched_at, status_code and one column per data field (union over items). Formula-like cells are neutralised. */
export function toCsv(items: ScrapeItem[]): string {
  const fields: string[] = [];
  for (const i of items) for (const k of Object.keys(i.data ?? {})) if (!fields.includes(k)) fields.push(k);
  const head = ['url', 'fetched_at', 'status_code', ...fields];
  const rows = items.map((i) => [i.url, i.fetched_at, i.status_code, ...fields.map((f) => i.data?.[f])].map(cell).join(','));
  return [head.join(','), ...rows].join('\r\n') + '\r\n';
}
