import { submitQuery, type QueryRecord } from '../queries/queries.js';
import { createRun } from '../runs/runs.js';
import type { RunRecord } from '../runs/run-record.js';
import { egressCheck } from '../events/egress.js';
import { getTenant } from '../tenancy/tenants.js';
import { outcomeFor } from '../audit/audit.js';
import { AppError, notFound } from '../errors.js';
import { log } from '../log.js';
import { assertJobScopes } from './job-owner.js';
import { getJob, recordLastRun, type JobCreate, type JobRecord } from './jobs.js';
import type { Deps } from '../../runtime.js';

// Starting a job's run, apart from jobs.ts: a run job's run goes through createRun, which needs
// every scraper spec; the functions that only read, list, edit or delete jobs bundle none of it.

/** What one run of a job started: a query (query jobs) or a run (run jobs). */
export type JobRunStarted = { kind: 'query'; query: QueryRecord } | { kind: 'run'; run: RunRecord };

/** The id of what a job run started (`qry_…` or `run_…`). */
export const startedId = (s: JobRunStarted) => (s.kind === 'query' ? s.query.query_id : s.run.id);

/**
 * Start one run of a job and record it as the job's last run. A query job submits its query
 * (result file `<query_id>_<run time>.json`). A run job starts an ordinary run through the same
 * path as POST /v1/runs (input, targets, quota, model readiness checked again now: the policy or
 * the runbook may have changed since the job was saved) with `job_id` set. A run the schedule
 * starts (`fromScheduler`) leaves an audit record of surface `scheduler` (allowed, or the
 * refusal); run-now is audited as the API call it is.
 */
export async function startJobRun(d: Deps, job: JobRecord, runAt: Date, now: Date, fromScheduler = false): Promise<JobRunStarted> {
  if (job.kind === 'run') return { kind: 'run', run: await startRunJobRun(d, job, now, fromScheduler) };
  const q = await submitQuery(
    d.table, d.queue, job.tenant_id,
    { prompt: job.prompt!, sources: job.sources!, time_window: job.time_window as JobCreate['time_window'], limit: job.limit ?? 100 },
    now, { jobId: job.job_id, jobRunAt: runAt },
  );
  await recordLastRun(d.table, job.tenant_id, job.job_id, { query_id: q.query_id, started_at: q.created_at });
  return { kind: 'query', query: q };
}

async function startRunJobRun(d: Deps, job: JobRecord, now: Date, fromScheduler: boolean): Promise<RunRecord> {
  const tenant = await getTenant(d.table, job.tenant_id);
  if (!tenant) throw notFound('Tenant');
  const audit = async (status: number, resource: string | null) => {
    if (!fromScheduler) return;
    await d.audit.record({
      ts: now.toISOString(), request_id: `job:${job.job_id}:${now.toISOString()}`, tenant_id: job.tenant_id,
      principal: { type: 'system', id: job.job_id }, surface: 'scheduler', action: 'runs.create', resource,
      outcome: outcomeFor(status), status, ip: null, user_agent: null,
    }).catch((err) => log.error('audit record of a job run failed', { err, job_id: job.job_id }));
  };
  let run: RunRecord;
  try {
    run = await createRun(d, egressCheck(d.config), tenant, { scraper_id: job.scraper_id!, input: job.input ?? {} }, now, job.secrets_use ? ['secrets:use'] : [], { jobId: job.job_id });
  } catch (e) {
    await audit(e instanceof AppError ? e.status : 500, null);
    throw e;
  }
  await audit(201, run.id);
  await recordLastRun(d.table, job.tenant_id, job.job_id, { run_id: run.id, started_at: run.created_at, status: run.status, finished_at: null });
  return run;
}

/**
 * POST /v1/jobs/{id}/run: run now, whether the schedule is active or paused. The caller needs the
 * scopes of what the job runs (`runs:write` and `runs:read` for a run job), as for creating it.
 */
export async function runJobNow(d: Deps, tenantId: string, jobId: string, now: Date, scopes?: readonly string[]): Promise<JobRunStarted> {
  const job = await getJob(d.table, tenantId, jobId);
  if (scopes) assertJobScopes(job.kind, scopes);
  return startJobRun(d, job, now, now);
}

