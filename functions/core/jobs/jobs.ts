import { createHash } from 'node:crypto';
import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import { AppError, ConditionFailedError, notFound } from '../errors.js';
import { nextRun, parseCron, toEventBridgeCron } from './cron.js';
import { querySubmitSchema, submitQuery, listQueries, type QueryRecord } from '../queries/queries.js';
import { resolveTimeWindow, type TimeWindowInput } from '../queries/time-window.js';
import { assertQueryFits } from '../queries/query-length-check.js';
import { checkOutboundUrl, egressCheck, type OutboundChecker } from '../events/egress.js';
import { SOURCE_NAMES, type SourceName } from '../../config.js';
import type { Deps } from '../../runtime.js';
import type { Table } from '../../ports/table.js';
import { listFiltered } from '../filtered-list.js';

/** A cron string checked with the same parser the scheduler uses; issues land on the field. */
const scheduleSchema = z
  .string()
  .trim()
  .min(1, 'schedule must not be empty')
  .max(120)
  .superRefine((v, ctx) => {
    try {
      parseCron(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: e instanceof AppError ? e.message : String(e) });
    }
  });

const webhookUrlSchema = z.string().trim().url('webhook_url must be an absolute URL').max(2048);
export const jobStatuses = ['active', 'paused'] as const;
export type JobStatus = (typeof jobStatuses)[number];

/** POST /v1/jobs body (API.md "Jobs"): a query plus a label, a 5-field UTC cron and an optional webhook. */
export const jobCreateSchema = querySubmitSchema.extend({
  label: z.string().trim().min(1, 'label must not be empty').max(200, 'label is at most 200 characters'),
  schedule: scheduleSchema,
  webhook_url: webhookUrlSchema.nullable().optional(),
});
export type JobCreate = z.infer<typeof jobCreateSchema>;

/** PATCH /v1/jobs/{job_id} body: pause/resume, reschedule, change or clear (null) the webhook, rename. */
export const jobUpdateSchema = z
  .strictObject({
    status: z.enum(jobStatuses, { message: 'status must be active or paused' }).optional(),
    schedule: scheduleSchema.optional(),
    webhook_url: webhookUrlSchema.nullable().optional(),
    label: z.string().trim().min(1).max(200).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'give at least one of status, schedule, webhook_url, label');
export type JobUpdate = z.infer<typeof jobUpdateSchema>;

export const jobRecordSchema = z.object({
  job_id: z.string(),
  tenant_id: z.string(),
  label: z.string(),
  prompt: z.string(),
  sources: z.array(z.enum(SOURCE_NAMES)),
  time_window: z.unknown().nullable(),
  limit: z.number().int(),
  schedule: z.string(),
  webhook_url: z.string().nullable(),
  status: z.enum(jobStatuses),
  created_at: z.string(),
  updated_at: z.string(),
  schedule_name: z.string(),
  last_run: z.object({ query_id: z.string(), started_at: z.string() }).nullable(),
});
export type JobRecord = z.infer<typeof jobRecordSchema>;

/** Public shape. `next_run_at` is derived from the schedule (null while paused), never stored stale. */
export const publicJob = (j: JobRecord, now: Date) => ({
  job_id: j.job_id,
  label: j.label,
  prompt: j.prompt,
  sources: j.sources,
  time_window: j.time_window ?? null,
  limit: j.limit,
  schedule: j.schedule,
  webhook_url: j.webhook_url,
  status: j.status,
  created_at: j.created_at,
  updated_at: j.updated_at,
  next_run_at: j.status === 'active' ? nextRun(j.schedule, now).toISOString() : null,
  last_run: j.last_run,
});

/**
 * EventBridge schedule names are at most 64 characters of `[0-9A-Za-z_.-]`. `job-<tenant>-<job>`
 * with the id prefixes dropped fits for generated ids (4 + 26 + 1 + 26); any other tenant id
 * that would not fit or has other characters is replaced by a short hash of it.
 */
export function scheduleName(tenantId: string, jobId: string): string {
  const t = tenantId.replace(/^ten_/, '');
  const j = jobId.replace(/^job_/, '');
  const tenantPart = /^[0-9A-Za-z_.-]{1,26}$/.test(t) ? t : createHash('sha256').update(tenantId).digest('hex').slice(0, 16);
  return `job-${tenantPart}-${j}`.slice(0, 64);
}

const jobKey = (tenantId: string, jobId: string) => keys.record(tenantId, 'JOB', jobId);

/** Payload of each schedule fire (the scheduler adds `kind: 'job.fire'` and `scheduled_for`). */
const firePayload = (j: JobRecord) => ({ tenant_id: j.tenant_id, job_id: j.job_id });

async function checkWebhookUrl(d: Deps, url: string, guard?: OutboundChecker): Promise<string> {
  return (await checkOutboundUrl(guard ?? egressCheck(d.config), url, 'webhook_url')).href;
}

/**
 * Create a job: validate the webhook target (egress guard) and the time window, store the record,
 * then create its schedule. When the scheduler refuses, the record is removed again so no job
 * exists without a schedule.
 */
export async function createJob(d: Deps, tenantId: string, input: JobCreate, now: Date): Promise<JobRecord> {
  // Refused here, in every mode, rather than by the scheduler on AWS (a failing call or a wrong schedule).
  toEventBridgeCron(input.schedule);
  resolveTimeWindow(input.time_window as TimeWindowInput | undefined, now);
  assertQueryFits(input, now);
  const webhook = input.webhook_url ? await checkWebhookUrl(d, input.webhook_url) : null;
  const jobId = newId('job');
  const job: JobRecord = {
    job_id: jobId,
    tenant_id: tenantId,
    label: input.label,
    prompt: input.prompt,
    sources: input.sources as SourceName[],
    time_window: input.time_window ?? null,
    limit: input.limit,
    schedule: input.schedule,
    webhook_url: webhook,
    status: 'active',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    schedule_name: scheduleName(tenantId, jobId),
    last_run: null,
  };
  await d.table.put({ ...jobKey(tenantId, jobId), ...job }, { condition: { expression: 'attribute_not_exists(pk)' } });
  try {
    await d.scheduler.upsert(job.schedule_name, job.schedule, firePayload(job), true);
  } catch (e) {
    await d.table.delete(jobKey(tenantId, jobId)).catch(() => undefined);
    throw e;
  }
  return job;
}

export async function getJob(table: Table, tenantId: string, jobId: string): Promise<JobRecord> {
  const i = await table.get(jobKey(tenantId, jobId), { consistent: true });
  if (!i) throw notFound('Job');
  return jobRecordSchema.parse(i);
}

/** Newest first (job ids are ULIDs). */
export function listJobs(table: Table, tenantId: string, q: { limit: number; cursor?: string; status?: JobStatus }) {
  return listFiltered(table, { pk: keys.tenantPk(tenantId), skBeginsWith: keys.recordPrefix('JOB'), descending: true }, q, (it) => {
    const j = jobRecordSchema.parse(it);
    return !q.status || j.status === q.status ? j : undefined;
  });
}

/**
 * Pause/resume (schedule disabled/enabled), reschedule (schedule replaced), change or clear the
 * webhook. The record is written first (conditional on existence) and the schedule is then made
 * to match the record as written, so the last writer's state is what the scheduler holds. A fire
 * that still arrives for a paused job is ignored by the worker.
 */
export async function updateJob(d: Deps, tenantId: string, jobId: string, patch: JobUpdate, now: Date): Promise<JobRecord> {
  if (patch.schedule !== undefined) toEventBridgeCron(patch.schedule);
  const set: Record<string, unknown> = { updated_at: now.toISOString() };
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.schedule !== undefined) set.schedule = patch.schedule;
  if (patch.label !== undefined) set.label = patch.label;
  if (patch.webhook_url !== undefined) set.webhook_url = patch.webhook_url === null ? null : await checkWebhookUrl(d, patch.webhook_url);
  let updated: JobRecord;
  try {
    updated = jobRecordSchema.parse(await d.table.update(jobKey(tenantId, jobId), { set, condition: { expression: 'attribute_exists(pk)' } }));
  } catch (e) {
    if (e instanceof ConditionFailedError) throw notFound('Job');
    throw e;
  }
  if (patch.status !== undefined || patch.schedule !== undefined)
    await d.scheduler.upsert(updated.schedule_name, updated.schedule, firePayload(updated), updated.status === 'active');
  return updated;
}

/** Delete a job and its schedule (irreversible). Its past runs and result files stay. */
export async function deleteJob(d: Deps, tenantId: string, jobId: string): Promise<void> {
  const job = await getJob(d.table, tenantId, jobId);
  // Schedule first: a crash in between leaves a job without fires, never fires without a job.
  await d.scheduler.remove(job.schedule_name);
  await d.table.delete(jobKey(tenantId, jobId));
}

/**
 * Start one run of a job: a query tied to the job, whose result file is `<query_id>_<run time>.json`.
 * Records it as the job's last run.
 */
export async function startJobRun(d: Deps, job: JobRecord, runAt: Date, now: Date): Promise<QueryRecord> {
  const q = await submitQuery(
    d.table, d.queue, job.tenant_id,
    { prompt: job.prompt, sources: job.sources, time_window: job.time_window as JobCreate['time_window'], limit: job.limit },
    now, { jobId: job.job_id, jobRunAt: runAt },
  );
  await recordLastRun(d.table, job.tenant_id, job.job_id, { query_id: q.query_id, started_at: q.created_at });
  return q;
}

/** Keep the newest run as last_run; a late write of an older run never replaces a newer one. */
async function recordLastRun(table: Table, tenantId: string, jobId: string, run: { query_id: string; started_at: string }) {
  try {
    await table.update(jobKey(tenantId, jobId), {
      set: { last_run: run },
      condition: {
        expression: 'attribute_exists(pk) AND (attribute_not_exists(last_run) OR last_run = :null OR last_run.query_id < :q)',
        values: { ':null': null, ':q': run.query_id },
      },
    });
  } catch (e) {
    if (!(e instanceof ConditionFailedError)) throw e; // deleted meanwhile, or a newer run already recorded
  }
}

/** POST /v1/jobs/{id}/run: run now, whether the schedule is active or paused. */
export async function runJobNow(d: Deps, tenantId: string, jobId: string, now: Date): Promise<QueryRecord> {
  const job = await getJob(d.table, tenantId, jobId);
  return startJobRun(d, job, now, now);
}

/** GET /v1/jobs/{id}/runs: the job's queries, newest first. */
export async function listJobRuns(table: Table, tenantId: string, jobId: string, q: { limit: number; cursor?: string }) {
  await getJob(table, tenantId, jobId);
  return listQueries(table, tenantId, { ...q, job_id: jobId });
}
