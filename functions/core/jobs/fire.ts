import { keys } from '../table-keys.js';
import { ConditionFailedError } from '../errors.js';
import { log } from '../log.js';
import { getJob, startJobRun, startedId, type JobRecord } from './jobs.js';
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
  | { kind: 'skipped'; reason: 'job_not_found' | 'job_paused' | 'tenant_not_found' | 'billing_inactive' };

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
  const id = startedId(await startJobRun(d, job, at, now, true));
  // The marker's query_id holds what the fire started: a qry_… or (run jobs) a run_… id.
  await d.table.update(marker, { set: { query_id: id } });
  return { kind: 'started', ...started(id) };
}
