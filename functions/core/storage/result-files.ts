import * as z from 'zod';
import { keys } from '../table-keys.js';
import { notFound } from '../errors.js';
import type { Table } from '../../ports/table.js';
import type { Blobs } from '../../ports/blobs.js';

/** A stored JSON result (SPEC.md 2.4). Content lives in the results bucket; this record indexes it. */
export const resultFileSchema = z.object({
  key: z.string(),
  query_id: z.string(),
  job_id: z.string().nullable(),
  size: z.number().int(),
  created_at: z.string(),
  content_type: z.string(),
});
export type ResultFile = z.infer<typeof resultFileSchema>;

const KEY_RE = /^[A-Za-z0-9_.:-]{1,200}$/;
export const isValidFileKey = (k: string) => KEY_RE.test(k) && !k.includes('..');

/** ISO 8601 UTC with the time part's colons as hyphens: 2026-11-22T08-00-00.000Z. */
export const keyTimestamp = (d: Date) => d.toISOString().replace(/:/g, '-');

/** `<query_id>_<timestamp>.json` for job runs; the bare query_id for ad-hoc queries. */
export const resultKeyFor = (queryId: string, jobRunAt: Date | null) => (jobRunAt ? `${queryId}_${keyTimestamp(jobRunAt)}.json` : queryId);

const blobKey = (tenantId: string, key: string) => `tenants/${tenantId}/results/${key}`;
const jobIndex = (tenantId: string, jobId: string) => `TEN#${tenantId}#JOBFILES#${jobId}`;

/**
 * Write the raw JSON result (blob first, then the index record), so a crash in between leaves
 * at worst an unlisted blob that the retry overwrites, never a listed file without content.
 */
export async function putResultFile(
  table: Table, blobs: Blobs, tenantId: string, f: { key: string; query_id: string; job_id: string | null; created_at: string }, body: unknown,
): Promise<ResultFile> {
  const json = JSON.stringify(body);
  await blobs.put('results', blobKey(tenantId, f.key), json, 'application/json');
  const rec: ResultFile = { ...f, size: Buffer.byteLength(json), content_type: 'application/json' };
  await table.put({
    ...keys.record(tenantId, 'FILE', f.key), ...rec,
    gsi1pk: f.job_id ? jobIndex(tenantId, f.job_id) : undefined, gsi1sk: f.job_id ? `${f.created_at}#${f.key}` : undefined,
    gsi2pk: `TEN#${tenantId}#FILEQ#${f.query_id}`, gsi2sk: f.key,
  });
  return rec;
}

/**
 * Set on a file's record when its deletion starts. A marked record is hidden from reads and
 * listings but still found by a delete (and the retention sweep), which finishes the job.
 */
const DELETING = 'deleting_at';

async function findRecord(table: Table, tenantId: string, keyOrQueryId: string): Promise<Record<string, unknown> | undefined> {
  if (!isValidFileKey(keyOrQueryId)) return undefined;
  const direct = await table.get(keys.record(tenantId, 'FILE', keyOrQueryId));
  if (direct) return direct;
  const byQuery = await table.query({ index: 'gsi2', pk: `TEN#${tenantId}#FILEQ#${keyOrQueryId}`, descending: true, limit: 1 });
  return byQuery.items[0];
}

/** Find a file by its key, or by a query_id (its newest file). Files being deleted are not found. */
export async function findResultFile(table: Table, tenantId: string, keyOrQueryId: string): Promise<ResultFile | undefined> {
  const rec = await findRecord(table, tenantId, keyOrQueryId);
  return rec && !rec[DELETING] ? resultFileSchema.parse(rec) : undefined;
}

export async function readResultFile(table: Table, blobs: Blobs, tenantId: string, keyOrQueryId: string): Promise<{ file: ResultFile; body: Uint8Array }> {
  const file = await findResultFile(table, tenantId, keyOrQueryId);
  if (!file) throw notFound('Storage file');
  const body = await blobs.get('results', blobKey(tenantId, file.key));
  if (!body) throw notFound('Storage file');
  return { file, body };
}

/** Newest first; filtered by job when asked. */
export async function listResultFiles(table: Table, tenantId: string, q: { limit: number; cursor?: string; job_id?: string }) {
  const page = q.job_id
    ? await table.query({ index: 'gsi1', pk: jobIndex(tenantId, q.job_id), descending: true, limit: q.limit, cursor: q.cursor })
    : await table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: keys.recordPrefix('FILE'), descending: true, limit: q.limit, cursor: q.cursor });
  return { data: page.items.filter((i) => !i[DELETING]).map((i) => resultFileSchema.parse(i)), next_cursor: page.cursor };
}

/**
 * Delete a stored result in three steps, each safe to repeat: mark the record (reads and
 * listings stop seeing the file), delete the content, delete the record. The record is how a file
 * is found and swept, so it outlives the content: a failure at any point leaves a marked record
 * that the same delete, retried by the caller or by the next retention sweep, finishes (S3
 * deletes are idempotent). The old order (record first) orphaned the content where no API call or
 * sweep could reach it again; content first without the mark would let a read meet a record
 * without content, which S3 answers with 403 to a role that may not list the bucket.
 */
export async function deleteResultFile(table: Table, blobs: Blobs, tenantId: string, keyOrQueryId: string, now: Date = new Date()): Promise<ResultFile> {
  const rec = await findRecord(table, tenantId, keyOrQueryId);
  if (!rec) throw notFound('Storage file');
  const file = resultFileSchema.parse(rec);
  const key = keys.record(tenantId, 'FILE', file.key);
  if (!rec[DELETING]) await table.update(key, { set: { [DELETING]: now.toISOString() } });
  await blobs.delete('results', blobKey(tenantId, file.key));
  await table.delete(key);
  return file;
}
