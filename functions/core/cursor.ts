import { createHash } from 'node:crypto';
import * as z from 'zod';
import { AppError } from './errors.js';
import type { QuerySpec } from '../ports/table.js';

/**
 * The one cursor codec (issue 19 finding 4). Every `next_cursor` a list hands out, and every
 * `?cursor=` it reads back, goes through here: table-backed lists through the table adapter
 * ({@link encodeTableCursor}), the run and crawl results through {@link encodeCursor}.
 *
 * A cursor is `<tag>.<payload>`: the tag is a digest of the list it belongs to (its kind and the
 * parameters that define its key range: tenant partition, index, sort-key condition, run and
 * attempt), the payload base64url JSON. On the way back the tag must match the list being read
 * and the payload must pass that list's schema (types, bounds, the key range), so a cursor from
 * another list, another tenant or another run, or a hand-made one with an impossible position,
 * is a 400 `invalid_cursor` and never reaches the table as an impossible query (a 500). The tag
 * is a binding, not a secret: the payload check is what makes a forged cursor harmless (it can
 * only name a position inside the caller's own list).
 */

/** What a cursor is bound to: the list's kind and the parameters that fix its range. */
export interface CursorBinding {
  list: string;
  scope?: string;
}

/** 400 `invalid_cursor`: the caller should start the list again without a cursor. */
export const invalidCursor = (why: string) =>
  new AppError(400, 'invalid_cursor', `The cursor is not valid for this list (${why}); list again without a cursor`);

/** Longest cursor read back; anything this service hands out is far shorter. */
const MAX_CURSOR = 4096;

const tagOf = (b: CursorBinding) => createHash('sha256').update(`${b.list}\n${b.scope ?? ''}`).digest('base64url').slice(0, 16);

/** Seal `payload` as a cursor of the list `binding` names. */
export function encodeCursor(binding: CursorBinding, payload: unknown): string {
  return `${tagOf(binding)}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
}

/**
 * Open a cursor of the list `binding` names and validate its payload with `schema`.
 * @throws AppError 400 `invalid_cursor` for anything else.
 */
export function decodeCursor<T>(binding: CursorBinding, cursor: string, schema: z.ZodType<T>): T {
  if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR) throw invalidCursor('malformed');
  const m = /^([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]+)$/.exec(cursor);
  if (!m) throw invalidCursor('malformed');
  if (m[1] !== tagOf(binding)) throw invalidCursor('it belongs to another list');
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(m[2]!, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('malformed');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidCursor('position out of range');
  return parsed.data;
}

/** Position in a run's stored item pages: page `p`, offset `o` within it. */
export const runItemsCursor = z.strictObject({ p: z.int().min(0).max(1_000_000_000), o: z.int().min(0).max(1_000_000) });
/** Position in a crawl's results: the next ordinal to read (the frontier pads ordinals to 10 digits). */
export const crawlResultsCursor = z.strictObject({ ord: z.int().min(0).max(9_999_999_999) });

// ---- table-backed lists -------------------------------------------------------------------

/** Key attribute names of a query: the base table's, plus the index's when it reads an index. */
function keyNames(spec: Pick<QuerySpec, 'index'>): { pk: string; sk: string; all: string[] } {
  if (!spec.index) return { pk: 'pk', sk: 'sk', all: ['pk', 'sk'] };
  const pk = `${spec.index}pk`;
  const sk = `${spec.index}sk`;
  return { pk, sk, all: ['pk', 'sk', pk, sk] };
}

/** The list a table query is: its index, partition and sort-key condition (its order too). */
const tableBinding = (spec: QuerySpec): CursorBinding => ({
  list: 'table',
  scope: JSON.stringify([spec.index ?? '', spec.pk, spec.skBeginsWith ?? null, spec.skBetween ?? null, spec.skGreaterThan ?? null, !!spec.descending]),
});

// DynamoDB orders string keys by their UTF-8 bytes, not by UTF-16 code units.
const cmp = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** Is `sk` inside the query's sort-key condition (else DynamoDB refuses the start key)? */
function inRange(spec: QuerySpec, sk: string): boolean {
  if (spec.skBeginsWith !== undefined) return sk.startsWith(spec.skBeginsWith);
  if (spec.skBetween) return cmp(sk, spec.skBetween[0]) >= 0 && cmp(sk, spec.skBetween[1]) <= 0;
  if (spec.skGreaterThan !== undefined) return cmp(sk, spec.skGreaterThan) > 0;
  return true;
}

/** The next-page cursor of a table query, from the key it stopped at (DynamoDB's LastEvaluatedKey). */
export function encodeTableCursor(spec: QuerySpec, lastKey: Record<string, unknown>): string {
  return encodeCursor(tableBinding(spec), lastKey);
}

/**
 * The start key a cursor of this very query names: exactly the key attributes of the query's
 * table or index, strings of at most 1 KiB, in the query's partition and sort-key range.
 * @throws AppError 400 `invalid_cursor` otherwise.
 */
export function decodeTableCursor(spec: QuerySpec, cursor: string): Record<string, string> {
  const names = keyNames(spec);
  const key = decodeCursor(tableBinding(spec), cursor, z.record(z.string(), z.string().min(1).max(1024)));
  const attrs = Object.keys(key);
  if (attrs.length !== names.all.length || !names.all.every((n) => n in key)) throw invalidCursor('not a key of this list');
  if (key[names.pk] !== spec.pk || !inRange(spec, key[names.sk]!)) throw invalidCursor('position out of range');
  return key;
}

/** A crawl-results cursor codec bound to `binding` (see crawl-results.ts `readCrawlItems`). */
export const ordinalCursorCodec = (binding: CursorBinding) => ({
  decode: (cursor: string) => decodeCursor(binding, cursor, crawlResultsCursor).ord,
  encode: (ord: number) => encodeCursor(binding, { ord }),
});
