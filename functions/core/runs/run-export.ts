import type { Blobs } from '../../ports/blobs.js';
import type { Table } from '../../ports/table.js';
import type { ScrapeItem } from '../scrapers/types.js';
import { crawlItemPages } from '../crawl/crawl-results.js';
import type { RunRecord } from './run-record.js';
import { crawlFrontier, readPage } from './run-items.js';
import { isTypedFormat, typedCell, typedColumns } from '../typed/csv-columns.js';

export type ExportFormat = 'ndjson' | 'csv';

/**
 * A run's items in result order, one stored page at a time: an item page object (at most
 * ITEMS_PER_PAGE items) for a single-invocation run, a table page of frontier records for a
 * crawl. Nothing is read ahead: the next page is read only when the consumer asks for it, so a
 * slow client holds the reader at one page.
 */
export async function* runItemPages(store: { table: Table; blobs: Blobs }, run: RunRecord): AsyncGenerator<ScrapeItem[]> {
  if (run.crawl) {
    yield* crawlItemPages(crawlFrontier(store.table, run), store.blobs);
    return;
  }
  for (let p = 0; p < run.item_pages; p++) yield await readPage(store.blobs, run, p);
}

/**
 * A run's export as text chunks, one per stored page, for a streamed response: memory is one
 * page whatever the run's size (no cap). NDJSON is one item per line. CSV starts with its header
 * row: url, fetched_at, status_code and one column per data field of the first page that holds
 * items (union, in the order first seen; a typed object is a fixed set of named columns, `product.price` and so on). The built-in scrapers give every item the same fields,
 * so that is every field; a field first appearing after that page is not in the CSV (NDJSON
 * carries everything). A run without items exports an empty NDJSON body, or the CSV header alone.
 */
export async function* exportRunItems(store: { table: Table; blobs: Blobs }, run: RunRecord, format: ExportFormat, chosen?: string[]): AsyncGenerator<string> {
  // Chosen columns (`?columns=`): exactly those, in that order (a data field or url, fetched_at, status_code).
  if (format === 'csv' && chosen?.length) {
    yield csvLine(chosen);
    for await (const page of runItemPages(store, run)) yield page.map((i) => csvLine(chosen.map((c) => cellOf(i, c)))).join('');
    return;
  }
  let columns: string[] | undefined;
  for await (const page of runItemPages(store, run)) {
    if (!page.length) continue;
    if (format === 'ndjson') {
      yield page.map((i) => `${JSON.stringify(i)}\n`).join('');
      continue;
    }
    let head = '';
    if (!columns) {
      columns = csvColumns(page);
      head = csvLine(columns);
    }
    const cols = columns;
    yield head + page.map((i) => csvLine(cols.map((c) => cellOf(i, c)))).join('');
  }
  if (format === 'csv' && !columns) yield csvLine(csvColumns([]));
}

const FIXED = ['url', 'fetched_at', 'status_code'];

/** An item's value for CSV column `c`: one of the fixed item fields, a typed column (`product.price`), else its data field. */
const cellOf = (i: ScrapeItem, c: string): unknown => {
  if (FIXED.includes(c)) return (i as unknown as Record<string, unknown>)[c];
  if (i.data && c in i.data) return i.data[c];
  return typedCell(i.data, c)?.value;
};

/** The CSV columns for items shaped like `sample`: the fixed ones, then each data field in the order first seen. */
export function csvColumns(sample: ScrapeItem[]): string[] {
  const fields = new Set<string>();
  // Typed objects (product, product_list, article, job_posting) become named columns (product.price, …).
  for (const i of sample) for (const k of Object.keys(i.data ?? {})) for (const c of isTypedFormat(k) ? typedColumns(k) : [k]) fields.add(c);
  return [...FIXED, ...fields];
}

/**
 * One CSV cell. Cells a spreadsheet may read as a formula (OWASP CSV injection: a leading `=`, `+`,
 * `-`, `@`, tab or carriage return) are neutralised with a leading quote.
 */
export const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const formula = /^[=+\-@\t\r]/.test(s);
  return /[",\n\r]/.test(s) || formula ? `"${(formula ? `'${s}` : s).replace(/"/g, '""')}"` : s;
};

const csvLine = (values: unknown[]) => `${values.map(csvCell).join(',')}\r\n`;
