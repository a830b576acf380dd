import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFakeX, type FakeX } from '../../fixtures/fake-sources/x.js';
import { startWebhookReceiver, type WebhookReceiver, type ReceivedWebhook } from '../../fixtures/webhook-receiver.js';
import { startFakeBucket, type FakeBucket } from '../../fixtures/s3-bucket.js';
import { verifySignature } from '../../../functions/core/webhooks/signature.js';
import { setDeliveryPolicy } from '../../../functions/core/webhooks/deliveries.js';
import { scheduleName } from '../../../functions/core/jobs/jobs.js';
import { nextRun } from '../../../functions/core/jobs/cron.js';
import { keyTimestamp } from '../../../functions/core/storage/result-files.js';
import { sweepRetention } from '../../../functions/core/sync/retention.js';
import { worker as jobsWorker } from '../../../functions/workers/jobs-worker.js';

let svc: TestService;
let x: FakeX;
let hooks: WebhookReceiver;
let bucket: FakeBucket;
let other: { tenant_id: string; api_key: string };

/** Far from any test run: jobs created here never fire on their own. */
const YEARLY = '0 0 1 1 *';
const jobBody = (extra: Record<string, unknown> = {}) => ({ label: 'Acme mentions', prompt: 'acme running shoes', sources: ['x'], schedule: YEARLY, limit: 5, ...extra });

beforeAll(async () => {
  // Retries at once (three of them): the test checks what is retried, not how long it waits.
  setDeliveryPolicy({ backoffSeconds: [0, 0, 0] });
  [x, hooks, bucket] = await Promise.all([startFakeX({ count: 20 }), startWebhookReceiver(), startFakeBucket()]);
  svc = await startTestService({
    GLEANER_SOURCE_X_BASE_URL: x.baseUrl,
    GLEANER_EGRESS_ALLOW: [new URL(x.baseUrl).host, hooks.hostPort, bucket.hostPort].join(','),
  });
  // The service listens on an ephemeral port, so there is no configured public URL to put in
  // result_url; use the address it actually listens on (what GLEANER_PUBLIC_URL would say).
  svc.deps.config.publicUrl = svc.url;
  expect((await svc.call('/dashboard/api/sources/x', { method: 'PUT', json: { bearer_token: 'x-test-token' } })).status).toBe(200);
  const { run } = await import('../../../functions/cli/admin.js');
  other = (await run(['tenants', 'create', '--name', 'other'], svc.deps.table)) as { tenant_id: string; api_key: string };
});
afterAll(async () => {
  setDeliveryPolicy();
  await svc?.destroy();
  await Promise.all([x?.close(), hooks?.close(), bucket?.close()]);
});

async function pollQuery(id: string) {
  for (let i = 0; i < 400; i++) {
    const r = await svc.call(`/v1/queries/${id}`);
    if (r.body.status === 'completed' || r.body.status === 'failed') return r;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('query did not finish');
}

const verify = (secret: string, w: ReceivedWebhook) =>
  verifySignature(secret, { id: String(w.headers['webhook-id']), timestamp: String(w.headers['webhook-timestamp']), signature: String(w.headers['webhook-signature']) }, w.body);

const schedule = (name: string) => svc.deps.table.get({ pk: 'LSCHED', sk: name });

describe('POST /v1/jobs validation', () => {
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['missing label', { label: undefined }, 'body.label'],
    ['empty label', { label: '' }, 'body.label'],
    ['label too long', { label: 'a'.repeat(201) }, 'body.label'],
    ['missing schedule', { schedule: undefined }, 'body.schedule'],
    ['not a cron', { schedule: 'every day at 8' }, 'body.schedule'],
    ['four fields', { schedule: '0 8 * *' }, 'body.schedule'],
    ['six fields', { schedule: '0 0 8 * * *' }, 'body.schedule'],
    ['minute 61', { schedule: '61 8 * * *' }, 'body.schedule'],
    ['unknown source', { sources: ['myspace'] }, 'body.sources.0'],
    ['limit 1001', { limit: 1001 }, 'body.limit'],
    ['bad window', { time_window: { last: 'forever' } }, 'body.time_window'],
    ['unknown field', { colour: 'red' }, 'body'],
    ['webhook not a URL', { webhook_url: 'not a url' }, 'body.webhook_url'],
    ['http webhook to a host not in the allow list', { webhook_url: 'http://93.184.216.34/hook' }, 'body.webhook_url'],
  ];
  it.each(bad)('%s -> 400 invalid_request', async (_n, extra, path) => {
    const r = await svc.call('/v1/jobs', { method: 'POST', json: jobBody(extra) });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it.each([
    ['private address', 'https://10.1.2.3/hook'],
    ['loopback not in the allow list', 'https://127.0.0.1:9/hook'],
    ['link-local metadata address', 'https://169.254.169.254/latest'],
    ['non-http scheme', 'ftp://93.184.216.34/hook'],
  ])('webhook_url to a %s -> 400 target_forbidden', async (_n, url) => {
    const r = await svc.call('/v1/jobs', { method: 'POST', json: jobBody({ webhook_url: url }) });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('target_forbidden');
  });

  it('a valid cron that EventBridge Scheduler cannot run -> 400 invalid_schedule saying why (POST and PATCH), nothing stored', async () => {
    const before = (await svc.call('/v1/jobs')).body.data.length;
    const r = await svc.call('/v1/jobs', { method: 'POST', json: jobBody({ schedule: '0 8 1 * 1' }) });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_schedule');
    expect(r.body.message).toMatch(/day-of-month .* day-of-week/);
    expect(r.body.details[0].path).toBe('body.schedule');
    expect((await svc.call('/v1/jobs')).body.data).toHaveLength(before);
    const ok = await svc.call('/v1/jobs', { method: 'POST', json: jobBody({ schedule: '0 8 * * */2' }) });
    expect(ok.status).toBe(201);
    const p = await svc.call(`/v1/jobs/${ok.body.job_id}`, { method: 'PATCH', json: { schedule: '0 8 L * *' } });
    expect(p.status).toBe(400);
    expect(p.body.code).toBe('invalid_schedule');
    expect((await svc.call(`/v1/jobs/${ok.body.job_id}`)).body.schedule).toBe('0 8 * * */2');
    expect(await schedule(scheduleName(svc.tenantId, ok.body.job_id))).toMatchObject({ cron: '0 8 * * */2' });
    expect((await svc.call(`/v1/jobs/${ok.body.job_id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('accepts a public https webhook_url (checked, never called) and needs jobs:write', async () => {
    // Another tenant: its job never runs, so nothing is ever sent to that address.
    const r = await svc.call('/v1/jobs', { method: 'POST', json: jobBody({ webhook_url: 'https://93.184.216.34/hook' }), key: other.api_key });
    expect(r.status).toBe(201);
    expect(r.body.webhook_url).toBe('https://93.184.216.34/hook');
    expect((await svc.call(`/v1/jobs/${r.body.job_id}`, { method: 'DELETE', key: other.api_key })).status).toBe(204);
    const { run } = await import('../../../functions/cli/admin.js');
    const reader = (await run(['keys', 'create', '--tenant', other.tenant_id, '--scopes', 'jobs:read'], svc.deps.table)) as { api_key: string };
    expect((await svc.call('/v1/jobs', { method: 'POST', json: jobBody(), key: reader.api_key })).status).toBe(403);
    expect((await svc.call('/v1/jobs', { key: reader.api_key })).status).toBe(200);
  });
});

describe('job lifecycle', () => {
  it('create, get, list, pause, resume, reschedule, change webhook, delete', async () => {
    const before = new Date();
    const c = await svc.call('/v1/jobs', { method: 'POST', json: jobBody({ schedule: '0 8 * * *', webhook_url: `${hooks.baseUrl}/lifecycle` }) });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      job_id: expect.stringMatching(/^job_[0-9a-z]{26}$/), label: 'Acme mentions', prompt: 'acme running shoes', sources: ['x'],
      schedule: '0 8 * * *', webhook_url: `${hooks.baseUrl}/lifecycle`, status: 'active', created_at: expect.any(String), last_run: null,
    });
    expect(c.body.next_run_at).toBe(nextRun('0 8 * * *', before).toISOString());
    expect(c.headers.get('location')).toBe(`/v1/jobs/${c.body.job_id}`);
    const id = c.body.job_id as string;
    const name = scheduleName(svc.tenantId, id);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(await schedule(name)).toMatchObject({ cron: '0 8 * * *', enabled: true, payload: { tenant_id: svc.tenantId, job_id: id } });

    expect((await svc.call(`/v1/jobs/${id}`)).body).toEqual({ ...c.body, next_run_at: expect.any(String) });
    const list = await svc.call('/v1/jobs?limit=1');
    expect(list.body.data[0].job_id).toBe(id);
    expect(list.body.next_cursor === null || typeof list.body.next_cursor === 'string').toBe(true);

    const paused = await svc.call(`/v1/jobs/${id}`, { method: 'PATCH', json: { status: 'paused' } });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ status: 'paused', next_run_at: null });
    expect(await schedule(name)).toMatchObject({ enabled: false });
    expect((await svc.call('/v1/jobs?status=paused')).body.data.map((j: { job_id: string }) => j.job_id)).toContain(id);

    const resumed = await svc.call(`/v1/jobs/${id}`, { method: 'PATCH', json: { status: 'active' } });
    expect(resumed.body).toMatchObject({ status: 'active', next_run_at: expect.any(String) });
    expect(await schedule(name)).toMatchObject({ enabled: true });

    const moved = await svc.call(`/v1/jobs/${id}`, { method: 'PATCH', json: { schedule: '30 6 * * 1' } });
    expect(moved.body.schedule).toBe('30 6 * * 1');
    expect(new Date(moved.body.next_run_at).getUTCDay()).toBe(1);
    expect(new Date(moved.body.next_run_at).getUTCHours()).toBe(6);
    expect(await schedule(name)).toMatchObject({ cron: '30 6 * * 1', enabled: true });

    expect((await svc.call(`/v1/jobs/${id}`, { method: 'PATCH', json: { webhook_url: null } })).body.webhook_url).toBeNull();
    expect((await svc.call(`/v1/jobs/${id}`, { method: 'PATCH', json: { webhook_url: `${hooks.baseUrl}/b` } })).body.webhook_url).toBe(`${hooks.baseUrl}/b`);
    expect((await svc.call(`/v1/jobs/${id}`, { method: 'PATCH', json: {} })).status).toBe(400);
    expect((await svc.call(`/v1/jobs/${id}`, { method: 'PATCH', json: { status: 'deleted' } })).status).toBe(400);
    expect((await svc.call(`/v1/jobs/${id}`, { method: 'PATCH', json: { schedule: '* * *' } })).status).toBe(400);
    expect((await svc.call(`/v1/jobs/${id}`, { method: 'PATCH', json: { webhook_url: 'https://192.168.1.1/' } })).body.code).toBe('target_forbidden');

    // Other tenants never see it.
    expect((await svc.call(`/v1/jobs/${id}`, { key: other.api_key })).status).toBe(404);
    expect((await svc.call(`/v1/jobs/${id}`, { method: 'DELETE', key: other.api_key })).status).toBe(404);

    const del = await svc.call(`/v1/jobs/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(await schedule(name)).toBeUndefined();
    expect((await svc.call(`/v1/jobs/${id}`)).status).toBe(404);
    expect((await svc.call(`/v1/jobs/${id}`, { method: 'PATCH', json: { status: 'active' } })).status).toBe(404);
    expect((await svc.call(`/v1/jobs/${id}/run`, { method: 'POST' })).status).toBe(404);
    expect((await svc.call(`/v1/jobs/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await svc.call('/v1/jobs/job_nope')).status).toBe(400);
  });
});

describe('a job run: storage, webhooks, bucket sync', () => {
  let jobId: string;
  let signingSecret: string;
  let registered: { webhook_id: string; secret: string };

  beforeAll(async () => {
    const s = await svc.call('/dashboard/api/settings/storage', {
      method: 'PUT',
      json: { sync: { endpoint: bucket.endpoint, bucket: bucket.bucket, access_key_id: bucket.accessKeyId, secret_access_key: 'customer-secret-value' } },
    });
    expect(s.status).toBe(200);
    const w = await svc.call('/v1/webhooks', { method: 'POST', json: { url: `${hooks.baseUrl}/registered` } });
    expect(w.status).toBe(201);
    registered = w.body;
    const st = await svc.call('/dashboard/api/settings/webhooks');
    expect(st.status).toBe(200);
    signingSecret = st.body.signing_secret;
    const j = await svc.call('/v1/jobs', { method: 'POST', json: jobBody({ webhook_url: `${hooks.baseUrl}/job` }) });
    jobId = j.body.job_id;
  });

  it('registers webhooks with a one-time whsec_ secret and never shows secrets again', async () => {
    expect(registered).toMatchObject({ webhook_id: expect.stringMatching(/^whk_/), url: `${hooks.baseUrl}/registered`, events: ['job.completed'], status: 'enabled', secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{40,}$/) });
    const list = await svc.call('/v1/webhooks');
    expect(list.body.data.find((w: { webhook_id: string }) => w.webhook_id === registered.webhook_id)).toBeDefined();
    expect(list.text).not.toContain(registered.secret);
    expect(list.text).not.toContain('whsec_');
    expect(signingSecret).toMatch(/^whsec_/);
    expect((await svc.call('/dashboard/api/settings/webhooks')).body.signing_secret).toBe(signingSecret);
    const settings = await svc.call('/dashboard/api/settings/storage');
    expect(settings.body.sync).toMatchObject({ endpoint: bucket.endpoint, bucket: bucket.bucket, access_key_id: 'S3RVER', secret_access_key_set: true, force_path_style: true });
    expect(settings.text).not.toContain('customer-secret-value');
    for (const [json, code] of [
      [{ url: 'http://93.184.216.34/x' }, 'invalid_request'],
      [{ url: 'https://10.0.0.1/x' }, 'target_forbidden'],
      [{ url: `${hooks.baseUrl}/x`, events: ['query.done'] }, 'invalid_request'],
      [{ url: `${hooks.baseUrl}/x`, events: [] }, 'invalid_request'],
    ] as const) {
      const r = await svc.call('/v1/webhooks', { method: 'POST', json });
      expect([r.status, r.body.code]).toEqual([400, code]);
    }
    expect((await svc.call('/v1/webhooks', { key: other.api_key })).body.data).toEqual([]);
  });

  it('runs now: the result is stored as <query_id>_<ts>.json, job.completed is delivered signed, the bucket gets a copy', async () => {
    const r = await svc.call(`/v1/jobs/${jobId}/run`, { method: 'POST' });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ query_id: expect.stringMatching(/^qry_/), job_id: jobId, status: 'queued' });
    const qid = r.body.query_id as string;
    const done = await pollQuery(qid);
    expect(done.body).toMatchObject({ status: 'completed', job_id: jobId });

    const files = await svc.call(`/v1/storage?job_id=${jobId}`);
    expect(files.body.data).toHaveLength(1);
    const file = files.body.data[0];
    expect(file).toMatchObject({ query_id: qid, job_id: jobId, content_type: 'application/json' });
    expect(file.key).toMatch(new RegExp(`^${qid}_\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}\\.\\d{3}Z\\.json$`));

    const [own] = await hooks.waitFor('/job', 1);
    expect(own.headers['content-type']).toBe('application/json');
    expect(own.headers['webhook-id']).toMatch(/^dlv_/);
    expect(verify(signingSecret, own)).toBe(true);
    expect(verify(registered.secret, own)).toBe(false);
    expect(own.json).toEqual({
      event: 'job.completed', query_id: qid, job_id: jobId, status: 'completed',
      completed_at: done.body.completed_at, result_url: `${svc.url}/v1/storage/${encodeURIComponent(file.key)}`,
    });
    // The receiver fetches the result at once with its API key.
    const res = await fetch(own.json.result_url, { headers: { authorization: `Bearer ${svc.key}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(done.body.results);

    const [reg] = await hooks.waitFor('/registered', 1);
    expect(verify(registered.secret, reg)).toBe(true);
    expect(reg.json).toEqual(own.json);
    expect(reg.headers['webhook-id']).not.toBe(own.headers['webhook-id']);

    const runs = await svc.call(`/v1/jobs/${jobId}/runs`);
    expect(runs.body.data.map((q: { query_id: string }) => q.query_id)).toEqual([qid]);
    expect((await svc.call(`/v1/jobs/${jobId}`)).body.last_run).toMatchObject({ query_id: qid });

    await svc.queue.idle();
    const objectKey = `results/${qid}/${file.key.slice(qid.length + 1, -'.json'.length)}.json`;
    expect(await bucket.keys(`results/${qid}/`)).toEqual([objectKey]);
    expect(JSON.parse(await bucket.get(objectKey))).toEqual(done.body.results);
    expect((await svc.call('/dashboard/api/settings/storage')).body.last_sync).toMatchObject({ ok: true, key: objectKey, query_id: qid });

    const log = await svc.call(`/v1/webhooks/${registered.webhook_id}/deliveries`);
    expect(log.body.data[0]).toMatchObject({
      delivery_id: reg.headers['webhook-id'], event: 'job.completed', status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null,
      next_attempt_at: null, payload: own.json,
    });
    expect((await svc.call(`/v1/webhooks/${registered.webhook_id}/deliveries`, { key: other.api_key })).status).toBe(404);
  });

  it('retries a failing endpoint with the same webhook-id, disables one answering 410, fails after the last attempt, and retries by hand', async () => {
    hooks.plan.set('/flaky', [500]);
    hooks.plan.set('/gone', 410);
    hooks.plan.set('/down', 503);
    const make = async (path: string) => (await svc.call('/v1/webhooks', { method: 'POST', json: { url: `${hooks.baseUrl}${path}` } })).body as { webhook_id: string; secret: string };
    const [flaky, gone, down] = [await make('/flaky'), await make('/gone'), await make('/down')];

    const qid = (await svc.call(`/v1/jobs/${jobId}/run`, { method: 'POST' })).body.query_id;
    await pollQuery(qid);
    await svc.queue.idle();

    const f = hooks.at('/flaky');
    expect(f.map((w) => w.status)).toEqual([500, 200]);
    expect(f[0].headers['webhook-id']).toBe(f[1].headers['webhook-id']);
    expect(f[0].body).toBe(f[1].body);
    expect(f.every((w) => verify(flaky.secret, w))).toBe(true);
    const flog = (await svc.call(`/v1/webhooks/${flaky.webhook_id}/deliveries`)).body.data[0];
    expect(flog).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 200 });
    expect(flog.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);

    expect(hooks.at('/gone')).toHaveLength(1);
    const g = (await svc.call('/v1/webhooks')).body.data.find((w: { webhook_id: string }) => w.webhook_id === gone.webhook_id);
    expect(g).toMatchObject({ status: 'disabled', disabled_reason: expect.stringContaining('410') });
    expect((await svc.call(`/v1/webhooks/${gone.webhook_id}/deliveries`)).body.data[0]).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 410 });

    const d = hooks.at('/down');
    expect(d).toHaveLength(4); // 1 + the three retries of the test policy
    expect(new Set(d.map((w) => w.headers['webhook-id'])).size).toBe(1);
    const dlog = (await svc.call(`/v1/webhooks/${down.webhook_id}/deliveries`)).body.data[0];
    expect(dlog).toMatchObject({ status: 'failed', attempts: 4, last_status_code: 503, last_error: expect.stringContaining('503'), next_attempt_at: null });

    hooks.plan.set('/down', 200);
    const retry = await svc.call(`/v1/webhooks/${down.webhook_id}/deliveries/${dlog.delivery_id}/retry`, { method: 'POST' });
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ delivery_id: dlog.delivery_id, status: 'pending' });
    await svc.queue.idle();
    expect(hooks.at('/down')).toHaveLength(5);
    expect(hooks.at('/down')[4].headers['webhook-id']).toBe(dlog.delivery_id);
    expect((await svc.call(`/v1/webhooks/${down.webhook_id}/deliveries`)).body.data[0]).toMatchObject({ status: 'succeeded', attempts: 5 });
    expect((await svc.call(`/v1/webhooks/${gone.webhook_id}/deliveries/${dlog.delivery_id}/retry`, { method: 'POST' })).status).toBe(404);
    expect((await svc.call(`/v1/webhooks/${down.webhook_id}/deliveries/dlv_00000000000000000000000000/retry`, { method: 'POST' })).status).toBe(404);

    // The disabled endpoint gets nothing more; a deleted one neither.
    expect((await svc.call(`/v1/webhooks/${down.webhook_id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await svc.call(`/v1/webhooks/${down.webhook_id}`, { method: 'DELETE' })).status).toBe(404);
    const qid2 = (await svc.call(`/v1/jobs/${jobId}/run`, { method: 'POST' })).body.query_id;
    await pollQuery(qid2);
    await svc.queue.idle();
    expect(hooks.at('/gone')).toHaveLength(1);
    expect(hooks.at('/down')).toHaveLength(5);
    expect(hooks.at('/flaky')).toHaveLength(3);
  });

  it('a scheduler fire delivered twice starts one run, keyed by the fire time', async () => {
    const scheduledFor = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000).toISOString();
    const fire = { kind: 'job.fire', tenant_id: svc.tenantId, job_id: jobId, scheduled_for: scheduledFor };
    await jobsWorker.handle(fire, { receiveCount: 1, messageId: 'm-1' });
    await jobsWorker.handle(fire, { receiveCount: 2, messageId: 'm-1' });
    const runs = (await svc.call(`/v1/jobs/${jobId}/runs?limit=200`)).body.data as Array<{ query_id: string }>;
    const fromFire = (await svc.call(`/v1/jobs/${jobId}`)).body.last_run.query_id as string;
    expect(runs.filter((q) => q.query_id === fromFire)).toHaveLength(1);
    expect(runs).toHaveLength(4); // three run-now runs + one fire
    const done = await pollQuery(fromFire);
    expect(done.body.status).toBe('completed');
    expect((await svc.call(`/v1/storage/${fromFire}_${keyTimestamp(new Date(scheduledFor))}.json`)).status).toBe(200);
    await svc.queue.idle();

    // Paused: a fire starts nothing.
    await svc.call(`/v1/jobs/${jobId}`, { method: 'PATCH', json: { status: 'paused' } });
    await jobsWorker.handle({ ...fire, scheduled_for: new Date().toISOString() }, { receiveCount: 1, messageId: 'm-2' });
    expect((await svc.call(`/v1/jobs/${jobId}/runs?limit=200`)).body.data).toHaveLength(4);
    await svc.call(`/v1/jobs/${jobId}`, { method: 'PATCH', json: { status: 'active' } });
  });

  it('Save and test uploads a verification file, and reports a wrong key id or bucket as 400', async () => {
    const sync = { endpoint: bucket.endpoint, bucket: bucket.bucket, access_key_id: bucket.accessKeyId, secret_access_key: 'customer-secret-value' };
    const ok = await svc.call('/dashboard/api/settings/storage/test', { method: 'POST', json: { sync } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, key: expect.stringMatching(/^results\/\.gleaner-verify-.*\.json$/) });
    expect(await bucket.keys('results/.gleaner-verify-')).toContain(ok.body.key);

    const wrongKey = await svc.call('/dashboard/api/settings/storage/test', { method: 'POST', json: { sync: { ...sync, access_key_id: 'NOT-A-KEY' } } });
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.body).toMatchObject({ code: 'bucket_test_failed', message: expect.stringContaining('InvalidAccessKeyId') });
    expect(wrongKey.text).not.toContain('customer-secret-value');
    const settings = await svc.call('/dashboard/api/settings/storage');
    expect(settings.body.sync.access_key_id).toBe('NOT-A-KEY'); // saved, then tested
    expect(settings.body.last_test).toMatchObject({ ok: false, error: expect.stringContaining('InvalidAccessKeyId') });

    const wrongBucket = await svc.call('/dashboard/api/settings/storage/test', { method: 'POST', json: { sync: { ...sync, bucket: 'no-such-bucket' } } });
    expect(wrongBucket.status).toBe(400);
    expect(wrongBucket.body.message).toContain('NoSuchBucket');

    // Endpoints go through the same egress rules as webhooks.
    const notAllowed = await svc.call('/dashboard/api/settings/storage', { method: 'PUT', json: { sync: { ...sync, endpoint: 'http://127.0.0.1:1' } } });
    expect([notAllowed.status, notAllowed.body.code]).toEqual([400, 'invalid_request']);
    const privateHttps = await svc.call('/dashboard/api/settings/storage', { method: 'PUT', json: { sync: { ...sync, endpoint: 'https://10.0.0.5' } } });
    expect([privateHttps.status, privateHttps.body.code]).toEqual([400, 'target_forbidden']);
    const noSecret = await svc.call('/dashboard/api/settings/storage', { method: 'PUT', json: { sync: { ...sync, access_key_id: 'OTHER', secret_access_key: undefined } } });
    expect(noSecret.status).toBe(400);

    // Back to working settings; the secret may be left out for the same endpoint and key id.
    expect((await svc.call('/dashboard/api/settings/storage', { method: 'PUT', json: { sync } })).status).toBe(200);
    const again = await svc.call('/dashboard/api/settings/storage/test', { method: 'POST', json: { sync: { ...sync, secret_access_key: undefined } } });
    expect(again.status).toBe(200);
    expect((await svc.call('/dashboard/api/settings/storage/test', { method: 'POST', key: other.api_key })).status).toBe(400);
  });

  it('retention removes result files older than retention_days; sync off stops copies', async () => {
    const put = await svc.call('/dashboard/api/settings/storage', { method: 'PUT', json: { retention_days: 1 } });
    expect(put.body).toMatchObject({ retention_days: 1, sync: { bucket: bucket.bucket } });
    const before = (await svc.call(`/v1/storage?job_id=${jobId}&limit=200`)).body.data.length;
    expect(before).toBeGreaterThan(0);
    expect(await sweepRetention(svc.deps, svc.tenantId, new Date())).toEqual({ deleted: 0, more: false });
    const r = await sweepRetention(svc.deps, svc.tenantId, new Date(Date.now() + 2 * 86_400_000));
    expect(r.deleted).toBeGreaterThanOrEqual(before);
    expect((await svc.call(`/v1/storage?job_id=${jobId}`)).body.data).toEqual([]);

    expect((await svc.call('/dashboard/api/settings/storage', { method: 'PUT', json: { sync: null, retention_days: null } })).body).toMatchObject({ sync: null, retention_days: null });
    const objects = (await bucket.keys('results/')).length;
    const qid = (await svc.call(`/v1/jobs/${jobId}/run`, { method: 'POST' })).body.query_id;
    await pollQuery(qid);
    await svc.queue.idle();
    expect(await bucket.keys('results/')).toHaveLength(objects);
  });
});
