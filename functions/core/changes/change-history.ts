import * as z from 'zod';
import { encodeTime } from 'ulid';
import { listFiltered } from '../filtered-list.js';
import { keys } from '../table-keys.js';
import { pageKeyUrl } from '../freshness/page-key-url.js';
import { CHANGE_PREFIX, changeJobIndex, changeRecordSchema, changeUrlIndex, RECORDED_STATUSES, SnapshotStore, type ChangeRecord } from './snapshot-store.js';
import { getChangeRecord } from './page-changed.js';
import { AppError } from '../errors.js';
import type { Table } from '../../ports/table.js';
import type { Blobs } from '../../ports/blobs.js';
import type { QuerySpec } from '../../ports/table.js';

/** The latest time a change id (a ULID: 48 bits of milliseconds) can carry. */
const MAX_ID_TIME = 2 ** 48 - 1;
const inIdRange = (ms: number) => Number.isFinite(ms) && ms >= 0 && ms <= MAX_ID_TIME;

/** Filters of GET /v1/changes and MCP `list_changes` (API.md "History"). */
export const changeFiltersShape = {
  url: z.string().min(1).max(2048).optional().describe('Only changes of this page (compared by its normalised URL)'),
  tag: z.string().min(1).max(64).optional().describe('Only changes under this tag'),
  job_id: z.string().regex(/^job_[0-9a-z]{26}$/, 'expected a job_… id').optional().describe('Only changes found by runs of this job'),
  status: z.enum(RECORDED_STATUSES).optional(),
  since: z.iso
    .datetime({ offset: true })
    .refine((t) => inIdRange(Date.parse(t)), { message: `must be a time from ${new Date(0).toISOString()} to ${new Date(MAX_ID_TIME).toISOString()}` })
    .optional()
    .describe('Only changes detected at or after this time (ISO 8601, 1970 or later)'),
};
export type ChangeFilters = { url?: string; tag?: string; job_id?: string; status?: (typeof RECORDED_STATUSES)[number]; since?: string };

/** A change as the API lists it (the record without its storage keys). */
export const publicChangeSchema = changeRecordSchema.omit({ previous_key: true, current_key: true });
export type PublicChange = z.infer<typeof publicChangeSchema>;
export const publicChange = ({ previous_key: _p, current_key: _c, ...r }: ChangeRecord): PublicChange => r;

/** The smallest change id at or after `since` (change ids are ULIDs: their first 10 characters are the time). */
const idFloor = (since: string) => `chg_${encodeTime(Date.parse(since), 10).toLowerCase()}`;

/**
 * The tenant's change records, newest first, filtered: a page's history through the URL index,
 * a job's through the job index, otherwise the tenant's change records; `since` bounds the key range.
 */
export function listChanges(table: Table, tenantId: string, q: ChangeFilters & { limit: number; cursor?: string }) {
  // A fragment given is kept: a page rendered in the browser is tracked per route (`#/a`, `#/b`).
  const url = q.url ? pageKeyUrl(q.url, 'browser') : undefined;
  const floor = q.since ? idFloor(q.since) : undefined;
  let spec: Omit<QuerySpec, 'limit' | 'cursor'>;
  if (url) spec = { index: 'gsi1', pk: changeUrlIndex(tenantId, url), ...(floor ? { skBetween: [floor, 'chg_~'] as [string, string] } : {}), descending: true };
  else if (q.job_id) spec = { index: 'gsi2', pk: changeJobIndex(tenantId, q.job_id), ...(floor ? { skBetween: [floor, 'chg_~'] as [string, string] } : {}), descending: true };
  else spec = { pk: keys.tenantPk(tenantId), ...(floor ? { skBetween: [`${CHANGE_PREFIX}${floor}`, `${CHANGE_PREFIX}chg_~`] as [string, string] } : { skBeginsWith: CHANGE_PREFIX }), descending: true };
  return listFiltered(table, spec, q, (it) => {
    const r = changeRecordSchema.safeParse(it);
    if (!r.success) return undefined;
    const c = r.data;
    if (url && c.url !== url) return undefined;
    if (q.tag && c.tag !== q.tag) return undefined;
    if (q.job_id && c.job_id !== q.job_id) return undefined;
    if (q.status && c.status !== q.status) return undefined;
    return publicChange(c);
  });
}

/** Query of `DELETE /v1/changes`: the page and the tag whose baseline to drop. */
export const dropBaselineQuery = z.strictObject({
  url: z.string().min(1).max(2048).describe('The page (compared by its normalised URL)'),
  tag: changeFiltersShape.tag.unwrap().describe('The tag of the baseline ("default" when change_options.tag was not given)'),
});

/**
 * Drop a baseline (API.md `DELETE /v1/changes?url=&tag=`): the page's baseline under the tag,
 * its change records and their snapshots. 404 when the tenant has neither a baseline nor history
 * for it. The next fetch of the page with that tag is `new`.
 */
export async function dropBaseline(d: { table: Table; blobs: Blobs }, tenantId: string, q: { url: string; tag: string }) {
  const url = pageKeyUrl(q.url, 'browser');
  const dropped = await new SnapshotStore(d.table, d.blobs, tenantId, q.tag).drop(url);
  if (!dropped.baseline && !dropped.changes) throw new AppError(404, 'not_found', `No baseline of ${url} under the tag "${q.tag}"`);
  return { url, tag: q.tag, ...dropped };
}

/** One change with its diff and both versions' markdown (API.md `GET /v1/changes/{change_id}`). */
export async function getChange(d: { table: Table; blobs: Blobs }, tenantId: string, changeId: string) {
  const r = await getChangeRecord(d, tenantId, changeId);
  const store = new SnapshotStore(d.table, d.blobs, tenantId, r.tag);
  const [prev, cur] = await Promise.all([r.previous_key ? store.readSnapshot(r.previous_key) : undefined, r.current_key ? store.readSnapshot(r.current_key) : undefined]);
  return {
    ...publicChange(r),
    // The snapshot keeps every field change; the record may hold only the first ones.
    fields: (cur as { fields?: ChangeRecord['fields'] } | undefined)?.fields ?? r.fields,
    diff: r.status === 'changed' ? (cur?.diff ?? null) : null,
    previous_markdown: prev?.markdown ?? null,
    current_markdown: cur?.markdown ?? null,
  };
}
