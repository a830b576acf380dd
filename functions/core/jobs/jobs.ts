import { createHash } from 'node:crypto';
import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import { AppError, ConditionFailedError, badRequest, notFound } from '../errors.js';
import { nextRun, parseCron, toEventBridgeCron } from './cron.js';
import { querySubmitSchema, listQueries } from '../queries/queries.js';
import { resolveTimeWindow, type TimeWindowInput } from '../queries/time-window.js';
import { assertQueryFits } from '../queries/query-length-check.js';
import { checkOutboundUrl, egressCheck, type OutboundChecker } from '../events/egress.js';
import { SOURCE_NAMES, type SourceName } from '../../config.js';
import type { Deps } from '../../runtime.js';
import type { Table } from '../../ports/table.js';
import { listFiltered } from '../filtered-list.js';
import { canonicalTimeZone } from './zoned-time.js';
import { assertScheduleInterval, jobLimitReached, jobLimitsOf, withinJobLimit } from './job-limits.js';
import { assertJobScopes, jobOwnerSchema, ownerOf, type JobPrincipal } from './job-owner.js';
import type { RunRecord } from '../runs/run-record.js';
import { listRuns } from '../runs/run-reads.js';
import type { checkRunInput as CheckRunInput } from '../runs/check-run-input.js';
import type { Tenant } from '../tenancy/tenants.js';

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

export const jobKinds = ['query', 'run'] as const;
export type JobKind = (typeof jobKinds)[number];

/** An IANA time zone name, as the platform knows it (Intl), written back in its canonical spelling. */
export const timezoneSchema = z
  .string()
  .trim()
  .max(64)
  .transform((v, ctx) => {
    const tz = canonicalTimeZone(v);
    if (tz) return tz;
    ctx.addIssue({ code: 'custom', message: `timezone "${v}" is not an IANA time zone name (e.g. "Europe/Berlin", "America/New_York", "UTC")` });
    return z.NEVER;
  });

const labelSchema = z.string().trim().min(1, 'label must not be empty').max(200, 'label is at most 200 characters');
const runInputSchema = z.record(z.string(), z.unknown(), { message: 'input must be an object (the scraper\'s input)' });
const q = querySubmitSchema.shape;

/**
 * POST /v1/jobs body (API.md "Jobs", "Scheduled runs"): a label, a 5-field cron read in
 * `timezone` (default UTC), an optional webhook, and exactly one of a query (`prompt` +
 * `sources`, with `time_window` and `limit`) or a run (`scraper_id` + `input`). The run's input
 * is checked against its scraper when the job is created (createJob), not here.
 */
const jobCreateObject = z.strictObject({
    label: labelSchema,
    schedule: scheduleSchema,
    timezone: timezoneSchema.optional(),
    webhook_url: webhookUrlSchema.nullable().optional(),
    prompt: q.prompt.optional(),
    sources: q.sources.optional(),
    time_window: q.time_window,
    limit: z.number().int('limit must be a whole number').min(1).max(1000).optional(),
    scraper_id: z.string().trim().min(1, 'scraper_id must not be empty').max(100).optional(),
    input: runInputSchema.optional(),
  });
/** The fields of a job (the MCP create_job tool's arguments); {@link jobCreateSchema} adds the rules across fields. */
export const jobCreateShape = jobCreateObject.shape;

export const jobCreateSchema = jobCreateObject
  .superRefine((b, ctx) => {
    const query = b.prompt !== undefined || b.sources !== undefined;
    const run = b.scraper_id !== undefined || b.input !== undefined;
    const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
    if (query && run) {
      for (const f of ['prompt', 'sources', 'scraper_id', 'input'] as const)
        if (b[f] !== undefined) issue(f, 'give either prompt and sources (a query job) or scraper_id and input (a run job), not both');
    } else if (!query && !run) {
      issue('scraper_id', 'give scraper_id and input (a run job), or prompt and sources (a query job)');
      issue('prompt', 'give prompt and sources (a query job), or scraper_id and input (a run job)');
    } else if (query) {
      if (b.prompt === undefined) issue('prompt', 'prompt is required with sources (a query job)');
      if (b.sources === undefined) issue('sources', 'sources is required with prompt (a query job)');
    } else {
      if (b.scraper_id === undefined) issue('scraper_id', 'scraper_id is required with input (a run job)');
      if (b.input === undefined) issue('input', 'input is required with scraper_id (a run job; {} when the scraper needs none)');
      if (b.time_window !== undefined) issue('time_window', 'time_window applies to query jobs only');
      if (b.limit !== undefined) issue('limit', 'limit applies to query jobs only');
    }
  })
  // A query job's limit defaults as a query's does.
  .transform((b) => (b.prompt !== undefined ? { ...b, limit: b.limit ?? 100 } : b));
export type JobCreate = z.infer<typeof jobCreateSchema>;

/** PATCH /v1/jobs/{job_id} body: pause/resume, reschedule, change or clear (null) the webhook, rename. */
export const jobUpdateSchema = z
  .strictObject({
    status: z.enum(jobStatuses, { message: 'status must be active or paused' }).optional(),
    schedule: scheduleSchema.optional(),
    webhook_url: webhookUrlSchema.nullable().optional(),
    label: z.string().trim().min(1).max(200).optional(),
    timezone: timezoneSchema.optional(),
    /** A run job's input, checked again against its scraper (updateJob). */
    input: runInputSchema.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'give at least one of status, schedule, timezone, webhook_url, label, input');
export type JobUpdate = z.infer<typeof jobUpdateSchema>;

/** Reasons a fire starts nothing that are worth showing on the job (see fire.ts). */
export const jobSkipReasons = ['rate_limited', 'previous_run_active', 'refused', 'owner_lapsed'] as const;
const jobSkipSchema = z.object({
  at: z.string(),
  scheduled_for: z.string(),
  reason: z.enum(jobSkipReasons),
  message: z.string(),
});

export const jobRecordSchema = z.object({
  job_id: z.string(),
  tenant_id: z.string(),
  label: z.string(),
  /** Records written before run jobs existed are query jobs scheduled in UTC. */
  kind: z.enum(jobKinds).default('query'),
  timezone: z.string().default('UTC'),
  /** Query jobs: the query each run submits (null for run jobs). */
  prompt: z.string().nullable(),
  sources: z.array(z.enum(SOURCE_NAMES)).nullable(),
  time_window: z.unknown().nullable(),
  limit: z.number().int().nullable(),
  /** Run jobs: the scraper (built-in or published runbook) and its input (null for query jobs). */
  scraper_id: z.string().nullable().default(null),
  input: z.record(z.string(), z.unknown()).nullable().default(null),
  schedule: z.string(),
  webhook_url: z.string().nullable(),
  status: z.enum(jobStatuses),
  created_at: z.string(),
  updated_at: z.string(),
  schedule_name: z.string(),
  /**
   * The latest run: a query job's `{ query_id, started_at }`; a run job's `{ run_id, started_at,
   * status, finished_at }`, its status kept up to date as the run ends.
   */
  last_run: z
    .object({ query_id: z.string().optional(), run_id: z.string().optional(), started_at: z.string(), status: z.string().optional(), finished_at: z.string().nullable().optional() })
    .nullable(),
  /** Whether the job's creator could use tenant secrets (`secrets:use`): its scheduled runs may, too. */
  secrets_use: z.boolean().default(false),
  /** The credential that created (or last resumed) the job, with its scopes; null for jobs stored before owners were recorded. */
  owner: jobOwnerSchema.nullable().default(null),
  /** Why the job is paused when it was not a caller that paused it (its owner's key was revoked, expired or lost a scope). */
  status_reason: z.string().nullable().default(null),
  /** The latest fire that started nothing, and why (rate limit, previous run still going, refused), until a fire starts a run. */
  last_skip: jobSkipSchema.nullable().default(null),
});
export type JobRecord = z.infer<typeof jobRecordSchema>;
export type JobSkip = z.infer<typeof jobSkipSchema>;

/** Public shape. `next_run_at` is derived from the schedule (null while paused), never stored stale. */
export const publicJob = (j: JobRecord, now: Date) => ({
  job_id: j.job_id,
  label: j.label,
  kind: j.kind,
  prompt: j.prompt,
  sources: j.sources,
  time_window: j.time_window ?? null,
  limit: j.limit,
  scraper_id: j.scraper_id,
  input: j.input,
  schedule: j.schedule,
  timezone: j.timezone,
  webhook_url: j.webhook_url,
  status: j.status,
  created_at: j.created_at,
  updated_at: j.updated_at,
  next_run_at: j.status === 'active' ? nextRun(j.schedule, now, j.timezone).toISOString() : null,
  last_run: j.last_run,
  owner: j.owner,
  status_reason: j.status_reason,
  last_skip: j.last_skip,
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

export const jobKey = (tenantId: string, jobId: string) => keys.record(tenantId, 'JOB', jobId);

/** Payload of each schedule fire (the scheduler adds `kind: 'job.fire'` and `scheduled_for`). */
const firePayload = (j: JobRecord) => ({ tenant_id: j.tenant_id, job_id: j.job_id });

async function checkWebhookUrl(d: Deps, url: string, guard?: OutboundChecker): Promise<string> {
  return (await checkOutboundUrl(guard ?? egressCheck(d.config), url, 'webhook_url')).href;
}

/**
 * Who creates or edits a job: the tenant (target policy), the caller's scopes (a runbook's
 * secrets), and the check POST /v1/runs applies to a scraper and its input (core/runs/
 * check-run-input.ts). The check is passed in by the functions that create or edit jobs, so the
 * functions that only read, list or delete jobs do not bundle every scraper spec.
 */
export interface JobCaller {
  tenant: Tenant;
  /** The key or console user calling: recorded as the job's owner when it creates or resumes it. */
  principal: JobPrincipal;
  scopes: readonly string[];
  checkRunInput: typeof CheckRunInput;
}

/** A run job's scraper and input, checked exactly as POST /v1/runs checks them. */
const checkJobInput = (d: Deps, caller: JobCaller, scraperId: string, input: unknown, now: Date) =>
  caller.checkRunInput(d, egressCheck(d.config), caller.tenant, scraperId, input, caller.scopes, now);

const holdsSecretsUse = (scopes: readonly string[]) => scopes.includes('*') || scopes.includes('secrets:use');

/**
 * Create a job: validate the schedule against the tenant's floor between fires, the webhook
 * target (egress guard), the query's time window or the run's scraper and input, store the
 * record (refused again, 409, when it is past the tenant's job limit), then create its schedule
 * (read in the job's time zone). When the scheduler refuses, the record is removed again so no job exists without a
 * schedule.
 */
export async function createJob(d: Deps, tenantId: string, input: JobCreate, now: Date, caller?: JobCaller): Promise<JobRecord> {
  // Refused here, in every mode, rather than by the scheduler on AWS (a failing call or a wrong schedule).
  toEventBridgeCron(input.schedule);
  const limits = await jobLimitsOf(d.table, tenantId, caller?.tenant);
  assertScheduleInterval(input.schedule, limits);
  const kind: JobKind = input.scraper_id !== undefined ? 'run' : 'query';
  if (caller) assertJobScopes(kind, caller.scopes);
  let run: { scraper_id: string; input: Record<string, unknown> } | null = null;
  if (kind === 'query') {
    resolveTimeWindow(input.time_window as TimeWindowInput | undefined, now);
    assertQueryFits(input as { prompt: string; sources: SourceName[] }, now);
  } else {
    if (!caller) throw new Error('createJob: a run job needs the caller (tenant and scopes)');
    run = await checkJobInput(d, caller, input.scraper_id!, input.input, now);
  }
  const webhook = input.webhook_url ? await checkWebhookUrl(d, input.webhook_url) : null;
  const jobId = newId('job');
  const job: JobRecord = {
    job_id: jobId,
    tenant_id: tenantId,
    label: input.label,
    kind,
    timezone: input.timezone ?? 'UTC',
    prompt: kind === 'query' ? input.prompt! : null,
    sources: kind === 'query' ? (input.sources as SourceName[]) : null,
    time_window: input.time_window ?? null,
    limit: kind === 'query' ? (input.limit ?? 100) : null,
    scraper_id: run?.scraper_id ?? null,
    input: run?.input ?? null,
    schedule: input.schedule,
    webhook_url: webhook,
    status: 'active',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    schedule_name: scheduleName(tenantId, jobId),
    last_run: null,
    secrets_use: caller ? holdsSecretsUse(caller.scopes) : false,
    owner: caller ? ownerOf(caller.principal, caller.scopes) : null,
    status_reason: null,
    last_skip: null,
  };
  // Query jobs are stored as they always were (no run-job fields), so older readers still read them.
  const stored = kind === 'query' ? withoutRunFields(job) : job;
  await d.table.put({ ...jobKey(tenantId, jobId), ...stored }, { condition: { expression: 'attribute_not_exists(pk)' } });
  if (!(await withinJobLimit(d.table, tenantId, jobId, limits.max_jobs))) {
    await d.table.delete(jobKey(tenantId, jobId));
    throw jobLimitReached(limits.max_jobs);
  }
  try {
    await d.scheduler.upsert(job.schedule_name, job.schedule, firePayload(job), true, job.timezone);
  } catch (e) {
    await d.table.delete(jobKey(tenantId, jobId)).catch(() => undefined);
    throw e;
  }
  return job;
}

const withoutRunFields = (j: JobRecord) => {
  const { scraper_id: _s, input: _i, secrets_use: _u, ...rest } = j;
  return rest;
};

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
 * Pause/resume (schedule disabled/enabled), reschedule or move to another time zone (schedule
 * replaced), change or clear the webhook, rename, or give a run job a new input (checked against
 * its scraper as at creation). The record is written first (conditional on existence) and the
 * schedule is then made to match the record as written, so the last writer's state is what the
 * scheduler holds. A fire that still arrives for a paused job is ignored by the worker.
 */
export async function updateJob(d: Deps, tenantId: string, jobId: string, patch: JobUpdate, now: Date, caller?: JobCaller): Promise<JobRecord> {
  if (patch.schedule !== undefined) {
    toEventBridgeCron(patch.schedule);
    assertScheduleInterval(patch.schedule, await jobLimitsOf(d.table, tenantId, caller?.tenant));
  }
  const set: Record<string, unknown> = { updated_at: now.toISOString() };
  const job = caller || patch.input !== undefined ? await getJob(d.table, tenantId, jobId) : null;
  // Changing a job, pausing it included, takes the scopes of what it runs (issue 37 finding 6).
  if (caller && job) assertJobScopes(job.kind, caller.scopes);
  if (patch.input !== undefined) {
    if (job!.kind !== 'run' || !job!.scraper_id)
      throw badRequest('input applies to run jobs only; this is a query job', [{ path: 'body.input', message: 'query jobs have no input' }]);
    if (!caller) throw new Error('updateJob: a new input needs the caller (tenant and scopes)');
    set.input = (await checkJobInput(d, caller, job!.scraper_id, patch.input, now)).input;
  }
  // A new input or a resume: the caller now stands behind the job (its owner, whose key must keep
  // standing for the job to fire). A resumed run job's input is checked again with its scopes.
  // A resumed job is held to today's floor between fires, like a new one (the limit may have risen since).
  if (job && patch.status === 'active' && patch.schedule === undefined) assertScheduleInterval(job.schedule, await jobLimitsOf(d.table, tenantId, caller?.tenant));
  if (caller && job && (patch.input !== undefined || patch.status === 'active')) {
    if (patch.input === undefined && job.kind === 'run' && job.scraper_id) await checkJobInput(d, caller, job.scraper_id, job.input ?? {}, now);
    set.owner = ownerOf(caller.principal, caller.scopes);
    set.status_reason = null;
    if (job.kind === 'run') set.secrets_use = holdsSecretsUse(caller.scopes);
  }
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.status === 'paused') set.status_reason = null;
  if (patch.schedule !== undefined) set.schedule = patch.schedule;
  if (patch.timezone !== undefined) set.timezone = patch.timezone;
  if (patch.label !== undefined) set.label = patch.label;
  if (patch.webhook_url !== undefined) set.webhook_url = patch.webhook_url === null ? null : await checkWebhookUrl(d, patch.webhook_url);
  let updated: JobRecord;
  try {
    updated = jobRecordSchema.parse(await d.table.update(jobKey(tenantId, jobId), { set, condition: { expression: 'attribute_exists(pk)' } }));
  } catch (e) {
    if (e instanceof ConditionFailedError) throw notFound('Job');
    throw e;
  }
  if (patch.status !== undefined || patch.schedule !== undefined || patch.timezone !== undefined)
    await d.scheduler.upsert(updated.schedule_name, updated.schedule, firePayload(updated), updated.status === 'active', updated.timezone);
  return updated;
}

/** Delete a job and its schedule (irreversible). Its past runs and result files stay. */
export async function deleteJob(d: Deps, tenantId: string, jobId: string): Promise<void> {
  const job = await getJob(d.table, tenantId, jobId);
  // Schedule first: a crash in between leaves a job without fires, never fires without a job.
  await d.scheduler.remove(job.schedule_name);
  await d.table.delete(jobKey(tenantId, jobId));
}

type LastRun = NonNullable<JobRecord['last_run']>;

/** Keep the newest run as last_run; a late write of an older run never replaces a newer one. */
export async function recordLastRun(table: Table, tenantId: string, jobId: string, run: LastRun) {
  const field = run.run_id ? 'run_id' : 'query_id';
  try {
    await table.update(jobKey(tenantId, jobId), {
      set: { last_run: run },
      condition: {
        expression: `attribute_exists(pk) AND (attribute_not_exists(last_run) OR last_run = :null OR attribute_not_exists(last_run.${field}) OR last_run.${field} < :q)`,
        values: { ':null': null, ':q': run.run_id ?? run.query_id },
      },
    });
  } catch (e) {
    if (!(e instanceof ConditionFailedError)) throw e; // deleted meanwhile, or a newer run already recorded
  }
}

/** A run job's run ended: its last_run says so, unless a newer run has been recorded since. */
export async function recordRunEnded(table: Table, run: RunRecord): Promise<void> {
  if (!run.job_id) return;
  try {
    await table.update(jobKey(run.tenant_id, run.job_id), {
      set: { last_run: { run_id: run.id, started_at: run.created_at, status: run.status, finished_at: run.finished_at } },
      condition: { expression: 'attribute_exists(pk) AND last_run.run_id = :r', values: { ':r': run.id } },
    });
  } catch (e) {
    if (!(e instanceof ConditionFailedError)) throw e;
  }
}

/** GET /v1/jobs/{id}/runs: a query job's queries, or a run job's runs, newest first. */
export async function listJobRuns(d: Deps, tenantId: string, jobId: string, q: { limit: number; cursor?: string }) {
  const job = await getJob(d.table, tenantId, jobId);
  if (job.kind === 'run') return { kind: 'run' as const, page: await listRuns(d, tenantId, { ...q, job_id: jobId }) };
  return { kind: 'query' as const, page: await listQueries(d.table, tenantId, { ...q, job_id: jobId }) };
}
