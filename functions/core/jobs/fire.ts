import { keys } from '../table-keys.js';
import { ConditionFailedError } from '../errors.js';
import { log } from '../log.js';
import { AppError } from '../errors.js';
import { getJob, jobKey, type JobRecord, type JobSkip } from './jobs.js';
import { ownerLapse } from './job-owner.js';
import type { Tenant } from '../tenancy/tenants.js';
import { startJobRun, startedId } from './start-job-run.js';
import { getTenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';

// The jobs queue's messages live with every other queue message (core/queue-messages.ts).
import type { JobFire } from '../queue-messages.js';
export { jobFireMessage, type JobFire } from '../queue-messages.js';

import { prevRun } from './cron.js';
export { prevRun } from './cron.js';

/** How long a claim may sit without a query (or run) before another delivery may take it over. */
export const FIRE_CLAIM_STALE_MS = 120_000;
const MARKER_TTL_SECONDS = 14 * 86400;

/** What a fire started: a query job's query, or a run job's run. */
type Started = { query_id: string } | { run_id: string };
const started = (id: string): Started => (id.startsWith('run_') ? { run_id: id } : { query_id: id });

export type FireOutcome =
  | ({ kind: 'started' } & Started)
  | ({ kind: 'duplicate' } & Started)
  | { kind: 'skipped'; reason: 'job_not_found' | 'job_paused' | 'tenant_not_found' | 'billing_inactive' | JobSkip['reason'] };

/** Retryable: another delivery of the same fire is starting the run right now. */
export class FireInFlightError extends Error {
  constructor(jobId: string, at: string) {
    super(`Fire ${at} of ${jobId} is being started by another delivery`);
    this.name = 'FireInFlightError';
  }
}

/**
 * Handle one schedule fire: run the job if it exists and is active, at most once per
 * (job, scheduled_for). A conditional put of a marker item claims the fire; the marker then
 * records the query (or run) id, so an SQS redelivery (or a duplicate EventBridge invocation) finds it and
 * starts nothing. A claim whose holder died before submitting (no query id after
 * {@link FIRE_CLAIM_STALE_MS}) is taken over with a conditional update, so a crash never loses a run.
 */
export async function handleJobFire(d: Deps, m: JobFire): Promise<FireOutcome> {
  let job: JobRecord;
  try {
    job = await getJob(d.table, m.tenant_id, m.job_id);
  } catch {
    log.info('schedule fire for a job that no longer exists', { tenant_id: m.tenant_id, job_id: m.job_id });
    return { kind: 'skipped', reason: 'job_not_found' };
  }
  if (job.status !== 'active') return { kind: 'skipped', reason: 'job_paused' };
  // The API answers 402 while a tenant is past_due or suspended; its schedules obey the same rule.
  // The schedule itself stays in place, so runs resume with the first fire after billing is active.
  const tenant = await getTenant(d.table, m.tenant_id);
  if (!tenant) return { kind: 'skipped', reason: 'tenant_not_found' };
  if (tenant.billing_status !== 'active') {
    log.info('schedule fire skipped: billing not active', { tenant_id: m.tenant_id, job_id: m.job_id, billing_status: tenant.billing_status });
    return { kind: 'skipped', reason: 'billing_inactive' };
  }
  const now = d.clock.now();
  // The credential behind the job must still stand (issue 37 finding 6): otherwise the job is paused, saying why.
  const lapse = await ownerLapse(d.table, m.tenant_id, job.kind, job.owner, now);
  if (lapse) {
    await pauseForOwner(d, job, lapse, now);
    return { kind: 'skipped', reason: 'owner_lapsed' };
  }
  const at = m.scheduled_for ? new Date(m.scheduled_for) : prevRun(job.schedule, now, job.timezone);
  const marker = keys.record(m.tenant_id, 'JOBFIRE', `${m.job_id}#${at.toISOString()}`);
  const claimedAt = now.getTime();
  try {
    await d.table.put(
      { ...marker, job_id: m.job_id, scheduled_for: at.toISOString(), claimed_at: claimedAt, query_id: null, expires_at: Math.floor(claimedAt / 1000) + MARKER_TTL_SECONDS },
      { condition: { expression: 'attribute_not_exists(pk)' } },
    );
  } catch (e) {
    if (!(e instanceof ConditionFailedError)) throw e;
    const existing = await d.table.get(marker, { consistent: true });
    if (existing?.skipped) return { kind: 'skipped', reason: existing.skipped as JobSkip['reason'] };
    if (existing?.query_id) return { kind: 'duplicate', ...started(String(existing.query_id)) };
    if (!existing || claimedAt - Number(existing.claimed_at) < FIRE_CLAIM_STALE_MS) throw new FireInFlightError(m.job_id, at.toISOString());
    try {
      await d.table.update(marker, {
        set: { claimed_at: claimedAt },
        condition: { expression: 'claimed_at = :c AND query_id = :null', values: { ':c': existing.claimed_at, ':null': null } },
      });
    } catch (e2) {
      if (e2 instanceof ConditionFailedError) throw new FireInFlightError(m.job_id, at.toISOString());
      throw e2;
    }
  }
  // Within the tenant's own limits, as a run created through the API: the same rate bucket, one
  // run of the job at a time, then createRun's quota and input checks (issue 37 finding 4).
  const skip = async (reason: JobSkip['reason'], message: string): Promise<FireOutcome> => {
    await d.table.update(marker, { set: { skipped: reason } });
    await recordSkip(d, job, { at: now.toISOString(), scheduled_for: at.toISOString(), reason, message });
    return { kind: 'skipped', reason };
  };
  const busy = await previousRunActive(d, job, now);
  if (busy) return skip('previous_run_active', `Fire of ${at.toISOString()} skipped: the job's previous run ${busy} has not ended yet`);
  const rate = await d.rateLimiter.take(job.tenant_id, 'api', tenant.limits.rate_requests, tenant.limits.rate_seconds, now);
  if (!rate.allowed) return skip('rate_limited', rateMessage(at, tenant));
  let id: string;
  try {
    id = startedId(await startJobRun(d, job, at, now, true));
  } catch (e) {
    // A refusal (quota used up, target no longer allowed, input no longer valid) is final for this
    // fire: recorded on the job, not retried. Anything else is retried by the queue.
    if (e instanceof AppError && e.status < 500) return skip('refused', `Fire of ${at.toISOString()} refused: ${e.code}: ${e.message}`);
    throw e;
  }
  // The marker's query_id holds what the fire started: a qry_… or (run jobs) a run_… id.
  await d.table.update(marker, { set: { query_id: id } });
  if (job.last_skip) await d.table.update(jobKey(job.tenant_id, job.job_id), { set: { last_skip: null } }).catch(() => undefined);
  return { kind: 'started', ...started(id) };
}

const rateMessage = (at: Date, t: Tenant) =>
  `Fire of ${at.toISOString()} skipped: the tenant's rate limit (${t.limits.rate_requests} requests per ${t.limits.rate_seconds} s, shared with its API calls) was used up`;

/**
 * The job's previous run (run jobs), when it is still queued or running within its runtime limit
 * and a few minutes more: a schedule never stacks runs of one job. A run past that is taken to
 * have died, and does not hold the job up.
 */
async function previousRunActive(d: Deps, job: JobRecord, now: Date): Promise<string | null> {
  const last = job.last_run;
  if (job.kind !== 'run' || !last?.run_id || (last.status && !['queued', 'running'].includes(last.status))) return null;
  const run = await d.table.get(keys.record(job.tenant_id, 'RUN', last.run_id), { consistent: true });
  if (!run || !['queued', 'running'].includes(String(run.status))) return null;
  const limits = run.limits as { max_runtime_seconds?: number } | undefined;
  const deadline = new Date(String(run.created_at)).getTime() + ((limits?.max_runtime_seconds ?? 840) + 600) * 1000;
  return now.getTime() < deadline ? last.run_id : null;
}

async function recordSkip(d: Deps, job: JobRecord, skip: JobSkip): Promise<void> {
  log.warn('schedule fire started nothing', { tenant_id: job.tenant_id, job_id: job.job_id, reason: skip.reason, scheduled_for: skip.scheduled_for });
  try {
    await d.table.update(jobKey(job.tenant_id, job.job_id), { set: { last_skip: skip }, condition: { expression: 'attribute_exists(pk)' } });
  } catch (e) {
    if (!(e instanceof ConditionFailedError)) throw e;
  }
}

/**
 * Pause a job whose owner no longer stands: the record says why (`status_reason`), the schedule is
 * disabled, and the audit log has a `jobs.pause` record of surface `scheduler`.
 */
async function pauseForOwner(d: Deps, job: JobRecord, reason: string, now: Date): Promise<void> {
  log.warn('job paused: its owner no longer stands', { tenant_id: job.tenant_id, job_id: job.job_id, reason });
  try {
    await d.table.update(jobKey(job.tenant_id, job.job_id), {
      set: { status: 'paused', status_reason: reason, updated_at: now.toISOString() },
      condition: { expression: 'attribute_exists(pk) AND #s = :active', names: { '#s': 'status' }, values: { ':active': 'active' } },
    });
  } catch (e) {
    if (e instanceof ConditionFailedError) return; // deleted, or paused or resumed meanwhile
    throw e;
  }
  await d.scheduler.upsert(job.schedule_name, job.schedule, { tenant_id: job.tenant_id, job_id: job.job_id }, false, job.timezone);
  await d.audit.record({
    ts: now.toISOString(), request_id: `job:${job.job_id}:${now.toISOString()}`, tenant_id: job.tenant_id,
    principal: { type: 'system', id: job.job_id }, surface: 'scheduler', action: 'jobs.pause', resource: job.job_id,
    outcome: 'allowed', status: 200, ip: null, user_agent: null,
  }).catch((err) => log.error('audit record of a job pause failed', { err, job_id: job.job_id }));
}
