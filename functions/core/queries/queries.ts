import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import { notFound } from '../errors.js';
import { SOURCE_NAMES, type SourceName } from '../../config.js';
import { timeWindowSchema, resolveTimeWindow, type TimeWindowInput } from './time-window.js';
import type { Table } from '../../ports/table.js';
import type { Queue } from '../../ports/queue.js';
import { assertQueryFits } from './query-length-check.js';
import { listFiltered } from '../filtered-list.js';

/** POST /v1/queries body (API.md "Queries surface"). */
export const querySubmitSchema = z.strictObject({
  prompt: z.string().trim().min(1, 'prompt must not be empty').max(2000, 'prompt is at most 2000 characters'),
  sources: z
    .array(z.enum(SOURCE_NAMES, { message: `each source must be one of ${SOURCE_NAMES.join(', ')}` }))
    .min(1, 'give at least one source')
    .max(7)
    .refine((s) => new Set(s).size === s.length, 'sources must not repeat'),
  time_window: timeWindowSchema.optional(),
  limit: z.number().int('limit must be a whole number').min(1).max(1000).default(100),
});
export type QuerySubmit = z.infer<typeof querySubmitSchema>;

export const queryStatuses = ['queued', 'running', 'completed', 'failed'] as const;
export type QueryStatus = (typeof queryStatuses)[number];

export const queryRecordSchema = z.object({
  query_id: z.string(),
  tenant_id: z.string(),
  prompt: z.string(),
  sources: z.array(z.enum(SOURCE_NAMES)),
  time_window: z.unknown().nullable(),
  limit: z.number().int(),
  status: z.enum(queryStatuses),
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  error: z.string().nullable(),
  job_id: z.string().nullable(),
  result_key: z.string().nullable(),
  /** Set for a job run: the run's timestamp, used in its file key. */
  job_run_at: z.string().nullable(),
});
export type QueryRecord = z.infer<typeof queryRecordSchema>;

/** Public shape (results are attached from storage when completed). */
export const publicQuery = (q: QueryRecord) => ({
  query_id: q.query_id,
  prompt: q.prompt,
  sources: q.sources,
  time_window: q.time_window ?? null,
  limit: q.limit,
  status: q.status,
  created_at: q.created_at,
  completed_at: q.completed_at,
  job_id: q.job_id,
  ...(q.status === 'failed' ? { error: q.error ?? 'The query failed' } : {}),
});

/**
 * Store the query as queued and enqueue it. The record is written first, so a crash between
 * the two writes leaves a visible `queued` query (the caller got no 202 and retries with its
 * Idempotency-Key), never a run without a record.
 */
export async function submitQuery(
  table: Table, queue: Queue, tenantId: string, input: QuerySubmit, now: Date, opts: { jobId?: string; jobRunAt?: Date } = {},
): Promise<QueryRecord> {
  // Validate the window against "now" early (since < until, bounded) so the 400 comes at submit time.
  resolveTimeWindow(input.time_window as TimeWindowInput | undefined, now);
  // Job runs were checked when the job was saved; their window moves with each run.
  if (!opts.jobId) assertQueryFits(input, now);
  const q: QueryRecord = {
    query_id: newId('qry'),
    tenant_id: tenantId,
    prompt: input.prompt,
    sources: input.sources as SourceName[],
    time_window: input.time_window ?? null,
    limit: input.limit,
    status: 'queued',
    created_at: now.toISOString(),
    started_at: null,
    completed_at: null,
    error: null,
    job_id: opts.jobId ?? null,
    result_key: null,
    job_run_at: opts.jobRunAt?.toISOString() ?? null,
  };
  await table.put({
    ...keys.record(tenantId, 'QRY', q.query_id), ...q,
    ...(q.job_id ? { gsi1pk: `TEN#${tenantId}#JOBQ#${q.job_id}`, gsi1sk: q.query_id } : {}),
  });
  await queue.send('queries', { kind: 'query.run', tenant_id: tenantId, query_id: q.query_id });
  return q;
}

export async function getQuery(table: Table, tenantId: string, queryId: string): Promise<QueryRecord> {
  const i = await table.get(keys.record(tenantId, 'QRY', queryId), { consistent: true });
  if (!i) throw notFound('Query');
  return queryRecordSchema.parse(i);
}

export function listQueries(table: Table, tenantId: string, q: { limit: number; cursor?: string; status?: QueryStatus; job_id?: string }) {
  const spec = q.job_id
    ? { index: 'gsi1' as const, pk: `TEN#${tenantId}#JOBQ#${q.job_id}`, descending: true }
    : { pk: keys.tenantPk(tenantId), skBeginsWith: keys.recordPrefix('QRY'), descending: true };
  return listFiltered(table, spec, q, (it) => {
    const rec = queryRecordSchema.parse(it);
    return !q.status || rec.status === q.status ? rec : undefined;
  });
}

/** Move to a new state; the condition keeps terminal states terminal (retries cannot regress them). */
export async function transitionQuery(table: Table, tenantId: string, queryId: string, set: Partial<QueryRecord>, from: QueryStatus[]): Promise<QueryRecord | undefined> {
  try {
    const r = await table.update(keys.record(tenantId, 'QRY', queryId), {
      set,
      condition: { expression: `#s IN (${from.map((_, i) => `:f${i}`).join(', ')})`, names: { '#s': 'status' }, values: Object.fromEntries(from.map((s, i) => [`:f${i}`, s])) },
    });
    return queryRecordSchema.parse(r);
  } catch (e) {
    if ((e as Error).name === 'ConditionFailedError') return undefined;
    throw e;
  }
}
