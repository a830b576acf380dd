import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { createJob, jobCreateSchema } from '../../../functions/core/jobs/jobs.js';
import { handleJobFire } from '../../../functions/core/jobs/fire.js';
import { listQueries } from '../../../functions/core/queries/queries.js';
import { createTenant, setBilling } from '../../../functions/core/tenancy/tenants.js';

// Finding 5 (issue 9): no run starts while a tenant cannot use the service; runs resume when it can.
let h: Harness;
const T = 'ten_billing';
beforeAll(async () => {
  h = await startHarness();
  await createTenant(h.deps.table, 'late payer', h.clock.now, T);
});
afterAll(async () => h?.close());

describe('schedule fires and billing', () => {
  it('skips fires while past_due or suspended and runs again once active', async () => {
    const j = await createJob(h.deps, T, jobCreateSchema.parse({ label: 'j', prompt: 'acme', sources: ['x'], schedule: '0 * * * *' }), h.clock.now);
    const fire = (hour: number) => handleJobFire(h.deps, { kind: 'job.fire', tenant_id: T, job_id: j.job_id, scheduled_for: `2026-01-01T${String(hour).padStart(2, '0')}:00:00Z` });
    const runs = async () => (await listQueries(h.deps.table, T, { limit: 100, job_id: j.job_id })).data.length;

    await setBilling(h.deps.table, T, 'past_due');
    expect(await fire(1)).toEqual({ kind: 'skipped', reason: 'billing_inactive' });
    await setBilling(h.deps.table, T, 'suspended');
    expect(await fire(2)).toEqual({ kind: 'skipped', reason: 'billing_inactive' });
    expect(await runs()).toBe(0);
    expect(h.sent.filter((s) => s.queue === 'queries')).toHaveLength(0);

    await setBilling(h.deps.table, T, 'active');
    expect(await fire(3)).toMatchObject({ kind: 'started' });
    expect(await runs()).toBe(1);
  });

  it('a fire for a tenant that no longer exists starts nothing', async () => {
    const r = await handleJobFire(h.deps, { kind: 'job.fire', tenant_id: 'ten_gone', job_id: 'job_x' });
    expect(r.kind).toBe('skipped');
  });
});
