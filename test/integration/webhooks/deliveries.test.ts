import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../jobs/harness.js';
import { startCanary, type Canary } from '../governance/loopback.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.js';
import { createWebhook, getWebhook, tenantSigningSecret } from '../../../functions/core/webhooks/webhooks.js';
import {
  fanOut, getDelivery, listDeliveries, retryDelivery, setDeliveryPolicy, deliveryAttemptMessage, type DeliveryAttempt, type EventSpec,
} from '../../../functions/core/webhooks/deliveries.js';
import { attemptDelivery } from '../../../functions/core/webhooks/attempt-delivery.js';
import { verifySignature } from '../../../functions/core/webhooks/signature.js';
import { keys } from '../../../functions/core/table-keys.js';
import { setDeps } from '../../../functions/runtime.js';
import { worker as deliveriesWorker } from '../../../functions/workers/deliveries-worker.js';

let h: Harness;
let rx: WebhookReceiver;
let canary: Canary;
/** A tenant per test: fan-out goes to every endpoint of the tenant, so tests must not share one. */
let T = 'ten_hooks_0';
let n = 0;
beforeEach(() => {
  T = `ten_hooks_${++n}`;
});

beforeAll(async () => {
  [rx, canary] = await Promise.all([startWebhookReceiver(), startCanary()]);
  h = await startHarness({ GLEANER_EGRESS_ALLOW: rx.hostPort });
});
afterAll(async () => {
  setDeliveryPolicy();
  setDeps(undefined);
  await Promise.all([h?.close(), rx?.close(), canary?.close()]);
});
afterEach(() => setDeliveryPolicy());

/** A fresh event with a unique key (each test gets its own deliveries). */
const spec = (over: Partial<EventSpec> = {}): EventSpec => ({
  tenantId: T, event: 'job.completed', eventKey: `job.completed:qry_${++n}`, ownUrl: null, jobId: 'job_x',
  payload: { event: 'job.completed', query_id: `qry_${n}`, job_id: 'job_x', status: 'completed', completed_at: '2026-11-22T08:00:00.000Z', result_url: 'https://api.example/v1/storage/k' },
  ...over,
});
const attempts = () => h.sent.filter((s) => s.queue === 'deliveries' && s.message.kind === 'delivery.attempt');
const lastAttempt = () => deliveryAttemptMessage.parse(attempts().at(-1)!.message);
const hook = async (path: string, events?: Array<'job.completed' | 'run.completed'>) =>
  createWebhook(h.deps, T, { url: `${rx.baseUrl}${path}`, events: events ?? ['job.completed'] }, h.clock.now);

describe('fan-out', () => {
  it('creates one delivery per target (own URL + subscribed, enabled endpoints) and one attempt message each, once', async () => {
    const a = await hook('/fan-a');
    await hook('/fan-runs-only', ['run.completed']);
    const before = attempts().length;
    const s = spec({ ownUrl: `${rx.baseUrl}/fan-own` });
    const ids = await fanOut(h.deps, s);
    expect(ids).toHaveLength(2);
    const recs = await Promise.all(ids.map((id) => getDelivery(h.deps.table, T, id)));
    expect(recs.map((r) => [r.webhook_id, r.url, r.status, r.attempts])).toEqual(
      expect.arrayContaining([[null, `${rx.baseUrl}/fan-own`, 'pending', 0], [a.webhook.webhook_id, `${rx.baseUrl}/fan-a`, 'pending', 0]]),
    );
    expect(attempts().length - before).toBe(2);
    // A redelivered event message: the same deliveries. Those not yet started are queued again
    // (the first enqueue may have been lost in a crash); the attempt claim makes that harmless.
    expect(await fanOut(h.deps, s)).toEqual(ids);
    for (const x of attempts().slice(before)) await attemptDelivery(h.deps, deliveryAttemptMessage.parse(x.message));
    expect(rx.at('/fan-own')).toHaveLength(1);
    expect(rx.at('/fan-a')).toHaveLength(1);
    expect(await fanOut(h.deps, s)).toEqual(ids);
    expect(attempts().length - before).toBe(4); // finished deliveries are not queued again
    expect((await listDeliveries(h.deps.table, T, a.webhook.webhook_id, { limit: 10 })).data.map((d) => d.delivery_id)).toEqual([ids[1]]);
  });
});

describe('attempts', () => {
  const deliver = async (path: string) => {
    const w = await hook(path);
    const [id] = await fanOut(h.deps, spec());
    const m: DeliveryAttempt = { kind: 'delivery.attempt', tenant_id: T, delivery_id: id, seq: 0 };
    return { w, id, m };
  };

  it('signs with the endpoint secret and succeeds on 2xx; a duplicate message sends nothing', async () => {
    const { w, id, m } = await deliver('/ok');
    expect(await attemptDelivery(h.deps, m)).toBe('succeeded');
    expect(await attemptDelivery(h.deps, m)).toBe('stale');
    const got = rx.at('/ok');
    expect(got).toHaveLength(1);
    expect(got[0].headers['webhook-id']).toBe(id);
    expect(verifySignature(w.secret, { id, timestamp: String(got[0].headers['webhook-timestamp']), signature: String(got[0].headers['webhook-signature']) }, got[0].body, h.clock.now.getTime())).toBe(true);
    expect(await getDelivery(h.deps.table, T, id)).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 200, in_flight_until: null, attempt_log: [{ attempt: 1, status_code: 200, error: null }] });
  });

  it('signs a job\'s own URL with the tenant job-webhook secret', async () => {
    const [id] = await fanOut(h.deps, spec({ ownUrl: `${rx.baseUrl}/own` }));
    expect(await attemptDelivery(h.deps, { kind: 'delivery.attempt', tenant_id: T, delivery_id: id, seq: 0 })).toBe('succeeded');
    const { secret } = await tenantSigningSecret(h.deps.table, h.deps.secrets, T, h.clock.now);
    const [got] = rx.at('/own');
    expect(verifySignature(secret, { id, timestamp: String(got.headers['webhook-timestamp']), signature: String(got.headers['webhook-signature']) }, got.body, h.clock.now.getTime())).toBe(true);
  });

  it('waits longer than one queue hop by chaining hops, then retries with the same id, then fails when attempts run out', async () => {
    setDeliveryPolicy({ backoffSeconds: [3600], maxHopSeconds: 900 });
    rx.plan.set('/later', 500);
    const { id, m } = await deliver('/later');
    const t0 = h.clock.now.getTime();
    try {
      expect(await attemptDelivery(h.deps, m)).toBe('retrying');
      const retry = lastAttempt();
      expect(retry).toMatchObject({ delivery_id: id, seq: 1, not_before: new Date(t0 + 3_600_000).toISOString() });
      expect(attempts().at(-1)!.delaySeconds).toBe(900);
      expect(await getDelivery(h.deps.table, T, id)).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, next_attempt_at: retry.not_before });

      h.clock.now = new Date(t0 + 900_000); // the first hop arrives: too early, hop again
      expect(await attemptDelivery(h.deps, retry)).toBe('waiting');
      expect(attempts().at(-1)).toMatchObject({ delaySeconds: 900, message: retry });
      expect(rx.at('/later')).toHaveLength(1);
      h.clock.now = new Date(t0 + 3_000_000); // last short hop
      expect(await attemptDelivery(h.deps, retry)).toBe('waiting');
      expect(attempts().at(-1)!.delaySeconds).toBe(600);

      h.clock.now = new Date(t0 + 3_600_000);
      expect(await attemptDelivery(h.deps, retry)).toBe('failed'); // 2 attempts with this policy
      const got = rx.at('/later');
      expect(got).toHaveLength(2);
      expect(got[0].headers['webhook-id']).toBe(got[1].headers['webhook-id']);
      expect(Number(got[1].headers['webhook-timestamp']) - Number(got[0].headers['webhook-timestamp'])).toBe(3600);
      expect(await getDelivery(h.deps.table, T, id)).toMatchObject({ status: 'failed', attempts: 2, next_attempt_at: null, last_error: 'The endpoint answered 500' });
    } finally {
      h.clock.now = new Date(t0);
    }
  });

  it('treats a slow endpoint as a failed attempt (timeout) and retries', async () => {
    setDeliveryPolicy({ timeoutMs: 200, backoffSeconds: [0] });
    rx.delays.set('/slow', 2_000);
    const { id, m } = await deliver('/slow');
    expect(await attemptDelivery(h.deps, m)).toBe('retrying');
    expect(await getDelivery(h.deps.table, T, id)).toMatchObject({ status: 'pending', last_status_code: null, last_error: expect.stringMatching(/timed out/) });
    rx.delays.delete('/slow');
    expect(await attemptDelivery(h.deps, lastAttempt())).toBe('succeeded');
  });

  it('disables an endpoint answering 410 and sends it nothing more', async () => {
    rx.plan.set('/gone', 410);
    const { w, id, m } = await deliver('/gone');
    expect(await attemptDelivery(h.deps, m)).toBe('failed');
    expect(await getWebhook(h.deps.table, T, w.webhook.webhook_id)).toMatchObject({ status: 'disabled', disabled_reason: expect.stringContaining('410') });
    expect(await getDelivery(h.deps.table, T, id)).toMatchObject({ status: 'failed', last_status_code: 410 });
    const ids = await fanOut(h.deps, spec());
    const recs = await Promise.all(ids.map((x) => getDelivery(h.deps.table, T, x)));
    expect(recs.map((r) => r.webhook_id)).not.toContain(w.webhook.webhook_id);
    await expect(retryDelivery(h.deps, T, w.webhook.webhook_id, id, h.clock.now)).rejects.toMatchObject({ status: 409 });
    expect(rx.at('/gone')).toHaveLength(1);
  });

  it('fails a delivery to a target the egress guard refuses, without connecting', async () => {
    const [id] = await fanOut(h.deps, spec({ ownUrl: `http://127.0.0.1:${canary.port}/hook` }));
    expect(await attemptDelivery(h.deps, { kind: 'delivery.attempt', tenant_id: T, delivery_id: id, seq: 0 })).toBe('failed');
    expect(await getDelivery(h.deps.table, T, id)).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringContaining('not a public address') });
    expect(canary.connections()).toBe(0);
  });

  it('takes over an attempt whose worker died, and ignores a stale message', async () => {
    const { id, m } = await deliver('/takeover');
    await h.deps.table.update(keys.record(T, 'DLV', id), { set: { attempts: 1, in_flight_until: h.clock.now.getTime() + 60_000 } });
    expect(await attemptDelivery(h.deps, m)).toBe('stale'); // still held
    await h.deps.table.update(keys.record(T, 'DLV', id), { set: { in_flight_until: h.clock.now.getTime() - 1 } });
    expect(await attemptDelivery(h.deps, m)).toBe('succeeded');
    expect(await getDelivery(h.deps.table, T, id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(rx.at('/takeover')).toHaveLength(1);
  });

  it('manual retry: one more attempt with the same id, no automatic retries after it; 409 while pending', async () => {
    setDeliveryPolicy({ backoffSeconds: [] });
    rx.plan.set('/manual', [500, 500, 200]);
    const { w, id, m } = await deliver('/manual');
    expect(await attemptDelivery(h.deps, m)).toBe('failed');
    const r = await retryDelivery(h.deps, T, w.webhook.webhook_id, id, h.clock.now);
    expect(r).toMatchObject({ status: 'pending', manual: true, attempts: 1 });
    await expect(retryDelivery(h.deps, T, w.webhook.webhook_id, id, h.clock.now)).rejects.toMatchObject({ status: 409 });
    setDeliveryPolicy({ backoffSeconds: [0, 0, 0] }); // even with retries left, a manual attempt is one attempt
    expect(await attemptDelivery(h.deps, lastAttempt())).toBe('failed');
    await retryDelivery(h.deps, T, w.webhook.webhook_id, id, h.clock.now);
    expect(await attemptDelivery(h.deps, lastAttempt())).toBe('succeeded');
    expect(rx.at('/manual').map((x) => x.headers['webhook-id'])).toEqual([id, id, id]);
    await expect(retryDelivery(h.deps, T, 'whk_other', id, h.clock.now)).rejects.toMatchObject({ status: 404 });
  });
});

describe('the deliveries worker', () => {
  it('run.completed goes to the run\'s own webhook_url and to endpoints subscribed to run.completed', async () => {
    setDeps(h.deps);
    const sub = await hook('/runs-sub', ['run.completed']);
    const before = attempts().length;
    await deliveriesWorker.handle(
      { kind: 'run.completed', tenant_id: T, run_id: 'run_01jd0000000000000000000000', status: 'succeeded', completed_at: '2026-11-22T08:00:00.000Z', webhook_url: `${rx.baseUrl}/run-own` },
      { receiveCount: 1, messageId: 'r1' },
    );
    const msgs = attempts().slice(before).map((s) => deliveryAttemptMessage.parse(s.message));
    const recs = await Promise.all(msgs.map((x) => getDelivery(h.deps.table, T, x.delivery_id)));
    expect(recs.map((r) => r.url).sort()).toEqual([`${rx.baseUrl}/run-own`, `${rx.baseUrl}/runs-sub`]);
    expect(recs.find((r) => r.webhook_id === sub.webhook.webhook_id)).toBeDefined();
    expect(JSON.parse(recs[0].body)).toEqual({
      event: 'run.completed', run_id: 'run_01jd0000000000000000000000', status: 'succeeded', completed_at: '2026-11-22T08:00:00.000Z',
      results_url: 'http://127.0.0.1:8787/v1/runs/run_01jd0000000000000000000000/results', // local mode, default PORT, no GLEANER_PUBLIC_URL
    });
    for (const m of msgs) await deliveriesWorker.handle(m, { receiveCount: 1, messageId: m.delivery_id });
    expect(rx.at('/run-own')).toHaveLength(1);
    expect(rx.at('/runs-sub')).toHaveLength(1);
  });

  it('refuses malformed messages without retrying', async () => {
    setDeps(h.deps);
    await expect(deliveriesWorker.handle({ kind: 'delivery.attempt', tenant_id: T }, { receiveCount: 1, messageId: 'bad' })).rejects.toMatchObject({ name: 'NonRetryableError' });
  });
});
