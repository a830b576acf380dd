import { describe, expect, it } from 'vitest';
import { jobCreateSchema, jobUpdateSchema, publicJob, scheduleName, type JobRecord } from '../../../functions/core/jobs/jobs.js';
import { prevRun } from '../../../functions/core/jobs/fire.js';
import { nextRun, toEventBridgeCron } from '../../../functions/core/jobs/cron.js';
import { checkOutboundUrl, type OutboundChecker } from '../../../functions/core/events/egress.js';
import { EgressGuard } from '../../../functions/core/governance/index.js';

const valid = { label: 'Daily', prompt: 'acme', sources: ['x'], schedule: '0 8 * * *' };

describe('job create/update schemas', () => {
  it('accepts a query plus label and a 5-field cron, with the query defaults', () => {
    expect(jobCreateSchema.parse(valid)).toEqual({ ...valid, limit: 100 });
    expect(jobCreateSchema.parse({ ...valid, webhook_url: null, time_window: { last: '24h' }, limit: 5 }).limit).toBe(5);
  });

  it.each([
    [{ schedule: '0 8 * *' }, 'schedule'],
    [{ schedule: '0 25 * * *' }, 'schedule'],
    [{ schedule: '@daily' }, 'schedule'],
    [{ label: '' }, 'label'],
    [{ label: 'x'.repeat(201) }, 'label'],
    [{ webhook_url: 'nope' }, 'webhook_url'],
    [{ sources: [] }, 'sources'],
    [{ extra: 1 }, ''],
  ])('refuses %j', (patch, path) => {
    const r = jobCreateSchema.safeParse({ ...valid, ...patch });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.'))).toContain(path);
  });

  it('update needs at least one known field', () => {
    expect(jobUpdateSchema.safeParse({}).success).toBe(false);
    expect(jobUpdateSchema.safeParse({ status: 'stopped' }).success).toBe(false);
    expect(jobUpdateSchema.safeParse({ prompt: 'x' }).success).toBe(false);
    expect(jobUpdateSchema.parse({ webhook_url: null })).toEqual({ webhook_url: null });
    expect(jobUpdateSchema.parse({ status: 'paused', schedule: '*/15 * * * *' })).toEqual({ status: 'paused', schedule: '*/15 * * * *' });
  });
});

describe('schedule times', () => {
  const at = new Date('2026-11-22T08:00:00.000Z');
  it('next run is strictly after now; the previous tick is at or before now', () => {
    expect(nextRun('0 8 * * *', at).toISOString()).toBe('2026-11-23T08:00:00.000Z');
    expect(nextRun('0 8 * * *', new Date('2026-11-22T07:59:59.999Z')).toISOString()).toBe('2026-11-22T08:00:00.000Z');
    expect(prevRun('0 8 * * *', at).toISOString()).toBe('2026-11-22T08:00:00.000Z');
    expect(prevRun('0 8 * * *', new Date('2026-11-22T08:00:30.000Z')).toISOString()).toBe('2026-11-22T08:00:00.000Z');
    expect(prevRun('*/15 * * * *', new Date('2026-11-22T08:44:00.000Z')).toISOString()).toBe('2026-11-22T08:30:00.000Z');
    expect(nextRun('30 6 * * 1', at).toISOString()).toBe('2026-11-23T06:30:00.000Z'); // 2026-11-23 is a Monday
    expect(toEventBridgeCron('30 6 * * 1')).toBe('cron(30 6 ? * 2 *)');
  });
});

describe('job public shape', () => {
  const job: JobRecord = {
    job_id: 'job_01jd0000000000000000000000', tenant_id: 'ten_a', label: 'Daily', prompt: 'acme', sources: ['x'], time_window: null, limit: 100,
    schedule: '0 8 * * *', webhook_url: null, status: 'active', created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z',
    schedule_name: 'job-a-01jd0000000000000000000000', last_run: null, kind: 'query', timezone: 'UTC', scraper_id: null, input: null, secrets_use: false,
    owner: null, status_reason: null, last_skip: null,
  };
  it('derives next_run_at from the schedule, null when paused, and hides internals', () => {
    const now = new Date('2026-11-22T09:00:00.000Z');
    expect(publicJob(job, now)).toMatchObject({ status: 'active', next_run_at: '2026-11-23T08:00:00.000Z', last_run: null });
    expect(publicJob({ ...job, status: 'paused' }, now).next_run_at).toBeNull();
    expect(Object.keys(publicJob(job, now))).not.toContain('schedule_name');
    expect(Object.keys(publicJob(job, now))).not.toContain('tenant_id');
  });
});

describe('schedule names (EventBridge: <= 64 chars of [0-9A-Za-z_.-])', () => {
  it.each([
    ['ten_01jd0000000000000000000000', 'job_01jd1111111111111111111111'],
    ['default', 'job_01jd1111111111111111111111'],
    ['a tenant/with odd chars and a very long name that does not fit', 'job_01jd1111111111111111111111'],
  ])('%s', (tenant, job) => {
    const n = scheduleName(tenant, job);
    expect(n.length).toBeLessThanOrEqual(64);
    expect(n).toMatch(/^job-[0-9A-Za-z_.-]+-01jd1111111111111111111111$/);
    expect(scheduleName(tenant, job)).toBe(n);
  });
  it('differs per tenant', () => {
    expect(scheduleName('ten_a', 'job_b')).not.toBe(scheduleName('ten_c', 'job_b'));
  });
});

describe('outbound URL rule (webhooks, bucket endpoints)', () => {
  // Addresses as data: IP literals only, so no resolver is asked and nothing is sent.
  const guard = new EgressGuard({ allow: ['127.0.0.1:4100'], userAgent: 'test', resolve: async () => { throw new Error('no DNS in unit tests'); } });
  const check = (u: string) => checkOutboundUrl(guard, u, 'webhook_url');
  it('allows https to public addresses and http only to an allowed host:port', async () => {
    await expect(check('https://93.184.216.34/hook')).resolves.toBeInstanceOf(URL);
    await expect(check('http://127.0.0.1:4100/hook')).resolves.toBeInstanceOf(URL);
    await expect(check('https://127.0.0.1:4100/hook')).resolves.toBeInstanceOf(URL);
    await expect(check('http://93.184.216.34/hook')).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
    await expect(check('http://127.0.0.1:4101/hook')).rejects.toMatchObject({ code: 'invalid_request' });
  });
  it('refuses private, loopback and odd targets with target_forbidden', async () => {
    for (const u of ['https://10.0.0.1/', 'https://127.0.0.1/', 'https://[::1]/', 'https://169.254.169.254/', 'https://0x7f000001/', 'https://u:p@93.184.216.34/', 'file:///etc/passwd'])
      await expect(check(u), u).rejects.toMatchObject({ status: 400, code: 'target_forbidden' });
    await expect(check('not a url')).rejects.toMatchObject({ code: 'invalid_request' });
  });
  it('accepts a name that does not resolve now (the connect-time check decides later)', async () => {
    await expect(check('https://hooks.example.invalid/x')).resolves.toBeInstanceOf(URL);
    const unresolvable: OutboundChecker = { isAllowed: () => false, checkUrl: async () => { throw new Error('getaddrinfo ENOTFOUND'); } };
    await expect(checkOutboundUrl(unresolvable, 'https://hooks.example.invalid/x', 'url')).resolves.toBeInstanceOf(URL);
  });
});
