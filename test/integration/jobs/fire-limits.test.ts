import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { createJob, getJob, jobCreateSchema, recordRunEnded, type JobRecord } from '../../../functions/core/jobs/jobs.js';
import { handleJobFire } from '../../../functions/core/jobs/fire.js';
import { checkRunInput } from '../../../functions/core/runs/check-run-input.js';
import { addUsage } from '../../../functions/core/limits/usage.js';
import { listQueries } from '../../../functions/core/queries/queries.js';
import { keys } from '../../../functions/core/table-keys.js';
import { createTenant, getTenant, setLimits, type Tenant } from '../../../functions/core/tenancy/tenants.js';
import type { RunRecord } from '../../../functions/core/runs/run-record.js';

// Issue 37 finding 4: 30 every-minute jobs made 30 runs a minute, whatever the tenant's limits.
// A fire now goes through the tenant's own limits like a run created through the API: its rate
// bucket (shared with its API calls), one run of a job at a time, and createRun's quota check; a
// fire that starts nothing says why on the job (last_skip) and is not retried.
let h: Harness;
// A loopback target nothing listens on: runs are only created here, never executed.
const TARGET = 'http://127.0.0.1:9/page';
beforeAll(async () => {
  h = await startHarness({ GLEANER_EGRESS_ALLOW: '127.0.0.1:9' });
});
afterAll(async () => h?.close());

const tenantWith = async (id: string, limits: Partial<Tenant['limits']>) => {
  const t = await createTenant(h.deps.table, id, h.clock.now, id);
  return setLimits(h.deps.table, id, { ...t.limits, ...limits });
};
const minute = (i: number) => new Date(Date.UTC(2026, 10, 23, 10, i)).toISOString();

describe('schedule fires within the tenant limits', () => {
  it('30 every-minute jobs under a 5-a-minute rate: 5 runs a minute, the rest skipped as rate_limited', async () => {
    const T = 'ten_thirty';
    await tenantWith(T, { rate_requests: 5, rate_seconds: 60, min_job_interval_seconds: 60 });
    const jobs: JobRecord[] = [];
    for (let i = 0; i < 30; i++)
      jobs.push(await createJob(h.deps, T, jobCreateSchema.parse({ label: `j${i}`, prompt: 'acme', sources: ['x'], schedule: '* * * * *' }), h.clock.now));
    const fireAll = (at: string) => Promise.all(jobs.map((j) => handleJobFire(h.deps, { kind: 'job.fire', tenant_id: T, job_id: j.job_id, scheduled_for: at })));
    h.clock.now = new Date(minute(0));
    const first = await fireAll(minute(0));
    expect(first.filter((r) => r.kind === 'started')).toHaveLength(5);
    expect(first.filter((r) => r.kind === 'skipped' && r.reason === 'rate_limited')).toHaveLength(25);
    expect((await listQueries(h.deps.table, T, { limit: 100 })).data).toHaveLength(5);
    // A skipped job says why; a redelivery of a skipped fire takes no token and starts nothing.
    const skipped = jobs[first.findIndex((r) => r.kind === 'skipped')]!;
    expect((await getJob(h.deps.table, T, skipped.job_id)).last_skip).toMatchObject({ reason: 'rate_limited', scheduled_for: minute(0), message: expect.stringContaining('5 requests per 60 s') });
    expect(await handleJobFire(h.deps, { kind: 'job.fire', tenant_id: T, job_id: skipped.job_id, scheduled_for: minute(0) })).toEqual({ kind: 'skipped', reason: 'rate_limited' });
    // The next minute: five more, no more.
    h.clock.now = new Date(minute(1));
    expect((await fireAll(minute(1))).filter((r) => r.kind === 'started')).toHaveLength(5);
    expect((await listQueries(h.deps.table, T, { limit: 100 })).data).toHaveLength(10);
  });

  const runJob = async (T: string, label: string) => {
    const tenant = (await getTenant(h.deps.table, T))!;
    return createJob(h.deps, T, jobCreateSchema.parse({ label, scraper_id: 'page-content', input: { url: TARGET }, schedule: '*/5 * * * *' }), h.clock.now,
      { tenant, principal: { type: 'user', id: 'usr_test' }, scopes: ['*'], checkRunInput });
  };

  it('a run job never stacks runs: a fire while its previous run is still going is skipped', async () => {
    const T = 'ten_overlap';
    await tenantWith(T, {});
    const j = await runJob(T, 'overlap');
    h.clock.now = new Date(minute(5));
    const a = await handleJobFire(h.deps, { kind: 'job.fire', tenant_id: T, job_id: j.job_id, scheduled_for: minute(5) });
    expect(a.kind).toBe('started');
    h.clock.now = new Date(minute(10));
    expect(await handleJobFire(h.deps, { kind: 'job.fire', tenant_id: T, job_id: j.job_id, scheduled_for: minute(10) })).toEqual({ kind: 'skipped', reason: 'previous_run_active' });
    expect((await getJob(h.deps.table, T, j.job_id)).last_skip).toMatchObject({ reason: 'previous_run_active' });
    // The run ends: the next fire starts one, and the job's last_skip is cleared.
    const runKey = keys.record(T, 'RUN', (a as { run_id: string }).run_id);
    const run = (await h.deps.table.update(runKey, { set: { status: 'succeeded', finished_at: minute(11) } })) as unknown as RunRecord;
    await recordRunEnded(h.deps.table, run);
    h.clock.now = new Date(minute(15));
    expect((await handleJobFire(h.deps, { kind: 'job.fire', tenant_id: T, job_id: j.job_id, scheduled_for: minute(15) })).kind).toBe('started');
    expect((await getJob(h.deps.table, T, j.job_id)).last_skip).toBeNull();
  });

  it('a fire past the monthly page quota is refused like POST /v1/runs (402), recorded on the job, not retried', async () => {
    const T = 'ten_quota';
    await tenantWith(T, { monthly_pages: 10 });
    const j = await runJob(T, 'quota');
    h.clock.now = new Date(minute(20));
    await addUsage(h.deps.table, T, 'pages', 10, h.clock.now);
    expect(await handleJobFire(h.deps, { kind: 'job.fire', tenant_id: T, job_id: j.job_id, scheduled_for: minute(20) })).toEqual({ kind: 'skipped', reason: 'refused' });
    expect((await getJob(h.deps.table, T, j.job_id)).last_skip).toMatchObject({ reason: 'refused', message: expect.stringContaining('quota_exhausted') });
    expect(h.sent.filter((s) => s.queue === 'runs' && s.message.tenant_id === T)).toHaveLength(0);
  });
});
