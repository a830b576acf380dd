import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { createJob, getJob, updateJob, deleteJob, jobCreateSchema, runJobNow, listJobRuns, startedId } from '../../../functions/core/jobs/jobs.js';
import { handleJobFire, FireInFlightError, FIRE_CLAIM_STALE_MS, prevRun } from '../../../functions/core/jobs/fire.js';
import { listQueries } from '../../../functions/core/queries/queries.js';
import { keys } from '../../../functions/core/table-keys.js';
import { createTenant } from '../../../functions/core/tenancy/tenants.js';

let h: Harness;
const T = 'ten_fire';
beforeAll(async () => {
  h = await startHarness();
  await createTenant(h.deps.table, 'fire', h.clock.now, T);
});
afterAll(async () => h?.close());

const newJob = async (schedule = '0 8 * * *') =>
  createJob(h.deps, T, jobCreateSchema.parse({ label: 'j', prompt: 'acme', sources: ['x'], schedule }), h.clock.now);
const runsOf = async (jobId: string) => (await listQueries(h.deps.table, T, { limit: 100, job_id: jobId })).data;

describe('job schedule wiring', () => {
  it('create upserts an enabled schedule; pause disables, resume enables, reschedule replaces; delete removes', async () => {
    const j = await newJob();
    expect(h.schedules.get(j.schedule_name)).toEqual({ cron: '0 8 * * *', payload: { tenant_id: T, job_id: j.job_id }, enabled: true });
    await updateJob(h.deps, T, j.job_id, { status: 'paused' }, h.clock.now);
    expect(h.schedules.get(j.schedule_name)?.enabled).toBe(false);
    await updateJob(h.deps, T, j.job_id, { schedule: '5 * * * *' }, h.clock.now);
    expect(h.schedules.get(j.schedule_name)).toMatchObject({ cron: '5 * * * *', enabled: false });
    await updateJob(h.deps, T, j.job_id, { status: 'active' }, h.clock.now);
    expect(h.schedules.get(j.schedule_name)).toMatchObject({ cron: '5 * * * *', enabled: true });
    await deleteJob(h.deps, T, j.job_id);
    expect(h.schedules.has(j.schedule_name)).toBe(false);
    await expect(getJob(h.deps.table, T, j.job_id)).rejects.toMatchObject({ status: 404 });
  });

  it('a refused schedule leaves no job behind', async () => {
    const upsert = h.deps.scheduler.upsert;
    h.deps.scheduler.upsert = async () => {
      throw new Error('scheduler down');
    };
    try {
      await expect(newJob()).rejects.toThrow('scheduler down');
    } finally {
      h.deps.scheduler.upsert = upsert;
    }
    const items = await h.deps.table.query({ pk: keys.tenantPk(T), skBeginsWith: 'JOB#' });
    expect(items.items.every((i) => h.schedules.has(String(i.schedule_name)))).toBe(true);
  });
});

describe('job.fire', () => {
  it('starts one run per (job, scheduled_for), however often the fire is delivered', async () => {
    const j = await newJob();
    const fire = { kind: 'job.fire' as const, tenant_id: T, job_id: j.job_id, scheduled_for: '2026-11-22T08:00:00.000Z' };
    const first = await handleJobFire(h.deps, fire);
    expect(first.kind).toBe('started');
    expect(await handleJobFire(h.deps, fire)).toEqual({ kind: 'duplicate', query_id: (first as { query_id: string }).query_id });
    const runs = await runsOf(j.job_id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ job_id: j.job_id, job_run_at: '2026-11-22T08:00:00.000Z', status: 'queued' });
    expect(h.sent.filter((s) => s.queue === 'queries' && s.message.query_id === runs[0].query_id)).toHaveLength(1);
    expect((await getJob(h.deps.table, T, j.job_id)).last_run).toEqual({ query_id: runs[0].query_id, started_at: runs[0].created_at });
    // The next tick is another run.
    expect((await handleJobFire(h.deps, { ...fire, scheduled_for: '2026-11-23T08:00:00.000Z' })).kind).toBe('started');
    expect(await runsOf(j.job_id)).toHaveLength(2);
  });

  it('two concurrent deliveries of one fire start one run; the other is told to retry', async () => {
    const j = await newJob();
    const fire = { kind: 'job.fire' as const, tenant_id: T, job_id: j.job_id, scheduled_for: '2026-11-22T08:00:00.000Z' };
    const results = await Promise.allSettled([handleJobFire(h.deps, fire), handleJobFire(h.deps, fire)]);
    expect(results.filter((r) => r.status === 'fulfilled' && r.value.kind === 'started')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(FireInFlightError);
    expect(await runsOf(j.job_id)).toHaveLength(1);
  });

  it('takes over a claim whose holder died before submitting', async () => {
    const j = await newJob();
    const at = '2026-11-22T08:00:00.000Z';
    await h.deps.table.put({ ...keys.record(T, 'JOBFIRE', `${j.job_id}#${at}`), claimed_at: h.clock.now.getTime() - FIRE_CLAIM_STALE_MS - 1, query_id: null });
    expect((await handleJobFire(h.deps, { kind: 'job.fire', tenant_id: T, job_id: j.job_id, scheduled_for: at })).kind).toBe('started');
    expect(await runsOf(j.job_id)).toHaveLength(1);
  });

  it('pins a fire without scheduled_for to the latest tick, so redeliveries agree', async () => {
    const j = await newJob('*/10 * * * *');
    const fire = { kind: 'job.fire' as const, tenant_id: T, job_id: j.job_id };
    expect((await handleJobFire(h.deps, fire)).kind).toBe('started');
    expect((await handleJobFire(h.deps, fire)).kind).toBe('duplicate');
    const [run] = await runsOf(j.job_id);
    expect(run.job_run_at).toBe(prevRun('*/10 * * * *', h.clock.now).toISOString());
  });

  it('ignores fires of paused and deleted jobs', async () => {
    const j = await newJob();
    await updateJob(h.deps, T, j.job_id, { status: 'paused' }, h.clock.now);
    expect(await handleJobFire(h.deps, { kind: 'job.fire', tenant_id: T, job_id: j.job_id })).toEqual({ kind: 'skipped', reason: 'job_paused' });
    await deleteJob(h.deps, T, j.job_id);
    expect(await handleJobFire(h.deps, { kind: 'job.fire', tenant_id: T, job_id: j.job_id })).toEqual({ kind: 'skipped', reason: 'job_not_found' });
    expect(await runsOf(j.job_id)).toHaveLength(0);
  });

  it('run now works while paused, and lists its runs newest first', async () => {
    const j = await newJob();
    await updateJob(h.deps, T, j.job_id, { status: 'paused' }, h.clock.now);
    const a = await runJobNow(h.deps, T, j.job_id, new Date(h.clock.now.getTime() + 1));
    const b = await runJobNow(h.deps, T, j.job_id, new Date(h.clock.now.getTime() + 2));
    const listed = await listJobRuns(h.deps, T, j.job_id, { limit: 10 });
    expect(listed.kind === 'query' && listed.page.data.map((q) => q.query_id)).toEqual([startedId(b), startedId(a)]);
    expect((await getJob(h.deps.table, T, j.job_id)).last_run?.query_id).toBe(startedId(b));
    await expect(listJobRuns(h.deps, T, 'job_missing', { limit: 10 })).rejects.toMatchObject({ status: 404 });
  });
});
