import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { createJob, deleteJob, jobCreateSchema, listJobs, updateJob } from '../../../functions/core/jobs/jobs.js';
import { run as admin } from '../../../functions/cli/admin.js';
import { keys } from '../../../functions/core/table-keys.js';
import { checkRunInput } from '../../../functions/core/runs/check-run-input.js';
import { createTenant, getTenant } from '../../../functions/core/tenancy/tenants.js';

// Issue 37 finding 4: a tenant could hold thousands of jobs, each firing every minute. Now a job
// limit and a floor between fires, both tenant limits the operator sets with `tenants set-limits`.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const body = (schedule: string, label = 'j') => jobCreateSchema.parse({ label, prompt: 'acme', sources: ['x'], schedule });
const tenant = async (id: string) => (await createTenant(h.deps.table, id, h.clock.now, id)).tenant_id;

describe('job limits', () => {
  it('a new tenant has the defaults: 100 jobs, at least 5 minutes between fires', async () => {
    const T = await tenant('ten_defaults');
    expect((await getTenant(h.deps.table, T))!.limits).toMatchObject({ max_jobs: 100, min_job_interval_seconds: 300 });
  });

  it('a tenant stored before the job limits existed reads with the defaults', async () => {
    const T = await tenant('ten_old');
    const item = await h.deps.table.get(keys.tenant(T));
    const { max_jobs: _m, min_job_interval_seconds: _i, ...oldLimits } = item!.limits as Record<string, unknown>;
    await h.deps.table.put({ ...item!, limits: oldLimits });
    expect((await getTenant(h.deps.table, T))!.limits).toMatchObject({ max_jobs: 100, min_job_interval_seconds: 300 });
  });

  it('refuses schedules that fire more often than the floor, with a 400 naming body.schedule', async () => {
    const T = await tenant('ten_floor');
    for (const s of ['* * * * *', '*/2 * * * *', '0,4 * * * *', '0,58 * * * *', '0,1 8 * * 1'])
      await expect(createJob(h.deps, T, body(s), h.clock.now)).rejects.toMatchObject({
        status: 400, code: 'schedule_too_frequent', details: [{ path: 'body.schedule' }],
      });
    // Last fire of one day to the first of the next: 23:58 -> 00:01 is 3 minutes.
    await expect(createJob(h.deps, T, body('1,58 0,23 * * *'), h.clock.now)).rejects.toMatchObject({ code: 'schedule_too_frequent' });
    for (const s of ['*/5 * * * *', '0 * * * *', '0,30 8 * * *', '59 23 * * 1', '0 0 * * 2'])
      await expect(createJob(h.deps, T, body(s), h.clock.now)).resolves.toMatchObject({ schedule: s });
    // Reached through the operator CLI, the floor goes down to a minute (and no lower).
    await admin(['tenants', 'set-limits', T, '--min-job-interval', '1m'], h.deps.table);
    await expect(createJob(h.deps, T, body('* * * * *'), h.clock.now)).resolves.toMatchObject({ schedule: '* * * * *' });
    await expect(admin(['tenants', 'set-limits', T, '--min-job-interval', '30s'], h.deps.table)).rejects.toThrow(/at least 1m/);
    await admin(['tenants', 'set-limits', T, '--min-job-interval', '1h'], h.deps.table);
    expect((await getTenant(h.deps.table, T))!.limits.min_job_interval_seconds).toBe(3600);
    await expect(createJob(h.deps, T, body('*/30 * * * *'), h.clock.now)).rejects.toMatchObject({ code: 'schedule_too_frequent' });
  });

  it('a reschedule is held to the floor too', async () => {
    const T = await tenant('ten_resched');
    const j = await createJob(h.deps, T, body('0 8 * * *'), h.clock.now);
    await expect(updateJob(h.deps, T, j.job_id, { schedule: '* * * * *' }, h.clock.now)).rejects.toMatchObject({ status: 400, code: 'schedule_too_frequent' });
    await expect(updateJob(h.deps, T, j.job_id, { schedule: '*/15 * * * *' }, h.clock.now)).resolves.toMatchObject({ schedule: '*/15 * * * *' });
  });

  it('a resume is held to the floor as it is now', async () => {
    const T = await tenant('ten_resume');
    await admin(['tenants', 'set-limits', T, '--min-job-interval', '1m'], h.deps.table);
    const j = await createJob(h.deps, T, body('* * * * *'), h.clock.now);
    await updateJob(h.deps, T, j.job_id, { status: 'paused' }, h.clock.now);
    await admin(['tenants', 'set-limits', T, '--min-job-interval', '5m'], h.deps.table);
    const caller = { tenant: (await getTenant(h.deps.table, T))!, principal: { type: 'user' as const, id: 'usr_a' }, scopes: ['*'], checkRunInput };
    await expect(updateJob(h.deps, T, j.job_id, { status: 'active' }, h.clock.now, caller)).rejects.toMatchObject({ status: 400, code: 'schedule_too_frequent' });
    await expect(updateJob(h.deps, T, j.job_id, { status: 'active', schedule: '*/5 * * * *' }, h.clock.now, caller)).resolves.toMatchObject({ status: 'active', schedule: '*/5 * * * *' });
  });

  it('holds at most max_jobs jobs: 409 job_limit_reached past it, room again after a delete', async () => {
    const T = await tenant('ten_cap');
    await admin(['tenants', 'set-limits', T, '--max-jobs', '3'], h.deps.table);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createJob(h.deps, T, body('0 8 * * *', `j${i}`), h.clock.now));
    await expect(createJob(h.deps, T, body('0 8 * * *', 'one too many'), h.clock.now)).rejects.toMatchObject({ status: 409, code: 'job_limit_reached' });
    // The refused job left nothing behind: no record, no schedule.
    expect((await listJobs(h.deps.table, T, { limit: 50 })).data.map((j) => j.label).sort()).toEqual(['j0', 'j1', 'j2']);
    expect([...h.schedules.values()].filter((s) => s.payload.tenant_id === T)).toHaveLength(3);
    await deleteJob(h.deps, T, made[0]!.job_id);
    await expect(createJob(h.deps, T, body('0 8 * * *', 'j3'), h.clock.now)).resolves.toMatchObject({ label: 'j3' });
  });

  it('concurrent creates racing for the last slots never pass the limit', async () => {
    const T = await tenant('ten_race');
    await admin(['tenants', 'set-limits', T, '--max-jobs', '4'], h.deps.table);
    await createJob(h.deps, T, body('0 8 * * *', 'first'), h.clock.now);
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => createJob(h.deps, T, body('0 8 * * *', `racer${i}`), h.clock.now)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 409, code: 'job_limit_reached' });
    expect((await listJobs(h.deps.table, T, { limit: 50 })).data).toHaveLength(4);
  });
});
