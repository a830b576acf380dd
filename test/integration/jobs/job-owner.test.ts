import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { createJob, getJob, jobCreateSchema, updateJob } from '../../../functions/core/jobs/jobs.js';
import { handleJobFire } from '../../../functions/core/jobs/fire.js';
import { runJobNow } from '../../../functions/core/jobs/start-job-run.js';
import { checkRunInput } from '../../../functions/core/runs/check-run-input.js';
import { createApiKey, revokeApiKey, rotateApiKey, type Scope } from '../../../functions/core/tenancy/api-keys.js';
import { createTenant, type Tenant } from '../../../functions/core/tenancy/tenants.js';

// Issue 37 finding 6 at the core: what a job needs to be made, and when it stops.
let h: Harness;
let tenant: Tenant;
const T = 'ten_owner';
beforeAll(async () => {
  h = await startHarness({ GLEANER_EGRESS_ALLOW: '127.0.0.1:9' });
  tenant = await createTenant(h.deps.table, 'owner', h.clock.now, T);
});
afterAll(async () => h?.close());

const keyWith = async (scopes: Scope[], expiresAt: Date | null = null) => (await createApiKey(h.deps.table, { tenantId: T, scopes, expiresAt }, h.clock.now)).key;
const caller = (k: { key_id: string; scopes: string[] }) => ({ tenant, principal: { type: 'key' as const, id: k.key_id }, scopes: k.scopes, checkRunInput });
const runBody = jobCreateSchema.parse({ label: 'r', scraper_id: 'page-content', input: { url: 'http://127.0.0.1:9/' }, schedule: '0 8 * * *' });
const queryBody = jobCreateSchema.parse({ label: 'q', prompt: 'acme', sources: ['x'], schedule: '0 8 * * *' });
const fire = (jobId: string, n: number) => handleJobFire(h.deps, { kind: 'job.fire', tenant_id: T, job_id: jobId, scheduled_for: new Date(Date.UTC(2026, 0, n, 8)).toISOString() });

describe('job scopes', () => {
  it('a run job needs runs:write and runs:read; a query job queries:write and queries:read', async () => {
    await expect(createJob(h.deps, T, runBody, h.clock.now, caller(await keyWith(['jobs:write'])))).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await expect(createJob(h.deps, T, runBody, h.clock.now, caller(await keyWith(['jobs:write', 'runs:write'])))).rejects.toMatchObject({ status: 403, details: [{ message: 'runs:read' }] });
    await expect(createJob(h.deps, T, queryBody, h.clock.now, caller(await keyWith(['jobs:write', 'runs:write', 'runs:read'])))).rejects.toMatchObject({ status: 403 });
    const k = await keyWith(['jobs:write', 'runs:write', 'runs:read']);
    const j = await createJob(h.deps, T, runBody, h.clock.now, caller(k));
    expect(j.owner).toEqual({ type: 'key', id: k.key_id, scopes: ['jobs:write', 'runs:write', 'runs:read'] });
    await expect(runJobNow(h.deps, T, j.job_id, h.clock.now, ['jobs:write'])).rejects.toMatchObject({ status: 403 });
    await expect(updateJob(h.deps, T, j.job_id, { status: 'paused' }, h.clock.now, caller(await keyWith(['jobs:write'])))).rejects.toMatchObject({ status: 403 });
  });
});

describe('a job stops when the key behind it stops standing', () => {
  it.each<[string, (keyId: string) => Promise<unknown>, RegExp]>([
    ['revoked', (id) => revokeApiKey(h.deps.table, id, h.clock.now), /was revoked at/],
    ['rotated out, once its grace period ended', (id) => rotateApiKey(h.deps.table, id, h.clock.now, 0), /was rotated to key_\w+ and expired/],
  ])('%s', async (_what, lapse, why) => {
    const k = await keyWith(['jobs:write', 'runs:write', 'runs:read']);
    const j = await createJob(h.deps, T, runBody, h.clock.now, caller(k));
    await lapse(k.key_id);
    h.clock.now = new Date(h.clock.now.getTime() + 1000);
    expect(await fire(j.job_id, 2)).toEqual({ kind: 'skipped', reason: 'owner_lapsed' });
    const after = await getJob(h.deps.table, T, j.job_id);
    expect(after.status).toBe('paused');
    expect(after.status_reason).toMatch(why);
    expect(h.schedules.get(j.schedule_name)?.enabled).toBe(false);
    expect(h.sent.filter((s) => s.queue === 'runs')).toHaveLength(0);
  });

  it('expired', async () => {
    const k = await keyWith(['*'], new Date(h.clock.now.getTime() + 60_000));
    const j = await createJob(h.deps, T, queryBody, h.clock.now, caller(k));
    h.clock.now = new Date(h.clock.now.getTime() + 120_000);
    expect(await fire(j.job_id, 3)).toEqual({ kind: 'skipped', reason: 'owner_lapsed' });
    expect((await getJob(h.deps.table, T, j.job_id)).status_reason).toMatch(/expired at/);
    // Resumed by a standing key, it fires again under that key.
    const k2 = await keyWith(['jobs:write', 'queries:write', 'queries:read']);
    const resumed = await updateJob(h.deps, T, j.job_id, { status: 'active' }, h.clock.now, caller(k2));
    expect(resumed).toMatchObject({ status: 'active', status_reason: null, owner: { id: k2.key_id } });
    expect((await fire(j.job_id, 4)).kind).toBe('started');
  });

  it('jobs stored before owners were recorded keep firing', async () => {
    const j = await createJob(h.deps, T, queryBody, h.clock.now);
    expect(j.owner).toBeNull();
    expect((await fire(j.job_id, 5)).kind).toBe('started');
  });
});
