import type { Item, QueryPage, QuerySpec, Table } from '../ports/table.js';

/** At most this many table pages are read for one API page (a filter that matches nothing stops). */
const MAX_PAGES = 50;

/**
 * One API page of a filtered listing: reads table pages of `spec` in its order, each asking only
 * for as many records as are still needed, so every record read is either returned or filtered
 * out and the cursor is exact (no record is skipped between pages). `read` turns a record into an
 * entry, or undefined to leave it out.
 */
export async function listFiltered<T>(
  table: Table,
  spec: Omit<QuerySpec, 'limit' | 'cursor'>,
  q: { limit: number; cursor?: string },
  read: (item: Item) => T | undefined,
): Promise<{ data: T[]; next_cursor: string | null }> {
  const data: T[] = [];
  let cursor: string | null | undefined = q.cursor;
  for (let i = 0; i < MAX_PAGES && data.length < q.limit; i++) {
    const page: QueryPage = await table.query({ ...spec, limit: q.limit - data.length, cursor: cursor ?? undefined });
    for (const it of page.items) {
      const entry = read(it);
      if (entry !== undefined) data.push(entry);
    }
    cursor = page.cursor;
    if (!cursor) break;
  }
  return { data, next_cursor: cursor ?? null };
}
