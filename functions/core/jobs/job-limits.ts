import { keys } from '../table-keys.js';
import { AppError } from '../errors.js';
import { DEFAULT_LIMITS, getTenant, type Tenant } from '../tenancy/tenants.js';
import { minIntervalSeconds } from './eventbridge-cron.js';
import type { Table } from '../../ports/table.js';

// The tenant's job limits (issue 37 finding 4): how many jobs it may hold and how often one may
// fire. Both are tenant limits like the rate and the monthly quotas (tenants.ts), set by the
// operator with `tenants set-limits --max-jobs N --min-job-interval 5m`.

export type JobLimits = Pick<Tenant['limits'], 'max_jobs' | 'min_job_interval_seconds'>;

/** The job limits of the caller's tenant, or of the tenant read from the table (defaults if it is gone). */
export async function jobLimitsOf(table: Table, tenantId: string, tenant?: Tenant): Promise<JobLimits> {
  const limits = (tenant ?? (await getTenant(table, tenantId)))?.limits ?? DEFAULT_LIMITS;
  return { max_jobs: limits.max_jobs, min_job_interval_seconds: limits.min_job_interval_seconds };
}

const spoken = (seconds: number) =>
  seconds % 3600 === 0 ? `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}` : seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} seconds`;

/**
 * 400 `schedule_too_frequent` (naming `body.schedule`) when two fires of the schedule can come
 * closer than the tenant's floor. Expects a schedule already checked by toEventBridgeCron.
 */
export function assertScheduleInterval(schedule: string, limits: JobLimits): void {
  const gap = minIntervalSeconds(schedule);
  const floor = limits.min_job_interval_seconds;
  if (gap < floor) {
    const message = `schedule "${schedule}" fires every ${spoken(gap)} at its most frequent; jobs of this tenant may fire at most once every ${spoken(floor)} (e.g. "*/${Math.max(1, Math.ceil(floor / 60))} * * * *" or less often)`;
    throw new AppError(400, 'schedule_too_frequent', message, [{ path: 'body.schedule', message: `at least ${floor} s between fires` }]);
  }
}

/** 409 `job_limit_reached`: the tenant holds its `max_jobs` already. */
export const jobLimitReached = (max: number) =>
  new AppError(409, 'job_limit_reached', `This tenant may hold at most ${max} jobs and has that many; delete a job first (the operator can raise the limit with tenants set-limits --max-jobs)`);

/**
 * Whether the job just stored is within the first `max` of the tenant's jobs, counted in id
 * order (ids are ULIDs, so creation order). Counting after the write, not before, keeps the cap
 * under concurrent creates: of two racing for the last slot both count each other, and the later
 * id is the one refused. Reads at most `max` + 1 records.
 */
export async function withinJobLimit(table: Table, tenantId: string, jobId: string, max: number): Promise<boolean> {
  let count = 0;
  let cursor: string | undefined;
  const prefix = keys.recordPrefix('JOB');
  do {
    const page = await table.query({ pk: keys.tenantPk(tenantId), skBetween: [prefix, `${prefix}${jobId}`], consistent: true, limit: 200, cursor });
    count += page.items.length;
    if (count > max) return false;
    cursor = page.cursor ?? undefined;
  } while (cursor);
  return true;
}
