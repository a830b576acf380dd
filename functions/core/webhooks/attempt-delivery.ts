import { AppError, ConditionFailedError } from '../errors.js';
import { log } from '../log.js';
import { egressGuard } from '../events/egress-guard.js';
import { webhookHeaders } from './signature.js';
import { disableWebhook, getWebhook, tenantSigningSecret, webhookSecret, type WebhookRecord } from './webhooks.js';
import { deliveryPolicy, deliveryRecordSchema, dlvKey, type DeliveryAttempt, type DeliveryRecord, type DeliveryStatus } from './deliveries.js';
import type { Deps } from '../../runtime.js';

// The sending side of webhook deliveries (the deliveries worker): it alone needs an HTTP client,
// so it lives apart from the delivery records the API lists and re-queues (deliveries.ts).

export type DeliverySender = (url: string, init: { headers: Record<string, string>; body: string; timeoutMs: number }) => Promise<number>;

const guardedSender = (d: Deps): DeliverySender => async (url, init) => {
  const res = await egressGuard(d.config).fetchResponse(url, { method: 'POST', headers: init.headers, body: init.body, timeoutMs: init.timeoutMs, maxRedirects: 0 });
  await res.body?.cancel().catch(() => undefined);
  return res.status;
};

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'waiting' | 'stale';

const delaySecondsFor = (ms: number) => Math.min(deliveryPolicy().maxHopSeconds, Math.max(0, Math.ceil(ms / 1000)));

/**
 * Make one attempt of a delivery (Standard Webhooks signing, 10 s deadline, egress guard).
 * 2xx: succeeded. 410: failed, and a registered endpoint is disabled. A refused target: failed.
 * Anything else (other status, timeout, network error): retried after the policy's next wait,
 * until the attempts run out (then failed). Every attempt is recorded on the delivery.
 *
 * Exactly one attempt per `seq`: the attempt is claimed with a conditional update of the
 * attempt counter, so a duplicate or stale message does nothing; a claim whose holder died is
 * taken over after `claimMs`.
 */
export async function attemptDelivery(d: Deps, m: DeliveryAttempt, send: DeliverySender = guardedSender(d)): Promise<AttemptOutcome> {
  const now = d.clock.now();
  if (m.not_before) {
    const wait = Date.parse(m.not_before) - now.getTime();
    if (wait > 0) {
      await d.queue.send('deliveries', m, { delaySeconds: delaySecondsFor(wait) });
      return 'waiting';
    }
  }
  let rec: DeliveryRecord;
  try {
    rec = deliveryRecordSchema.parse(await d.table.update(dlvKey(m.tenant_id, m.delivery_id), {
      set: { attempts: m.seq + 1, in_flight_until: now.getTime() + deliveryPolicy().claimMs, updated_at: now.toISOString() },
      condition: {
        expression: '#s = :pending AND (attempts = :seq OR (attempts = :next AND in_flight_until < :now))',
        names: { '#s': 'status' },
        values: { ':pending': 'pending', ':seq': m.seq, ':next': m.seq + 1, ':now': now.getTime() },
      },
    }));
  } catch (e) {
    if (e instanceof ConditionFailedError) return 'stale';
    throw e;
  }

  let webhook: WebhookRecord | undefined;
  let secret: string;
  if (rec.webhook_id) {
    webhook = await getWebhook(d.table, m.tenant_id, rec.webhook_id).catch(() => undefined);
    if (!webhook || webhook.status !== 'enabled') {
      await settle(d, rec, now, { status_code: null, error: webhook ? 'The webhook is disabled' : 'The webhook was deleted', duration_ms: 0 }, 'failed');
      return 'failed';
    }
    secret = await webhookSecret(d.secrets, webhook);
  } else {
    secret = (await tenantSigningSecret(d.table, d.secrets, m.tenant_id, now)).secret;
  }

  const timestamp = Math.floor(now.getTime() / 1000);
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  let forbidden = false;
  try {
    statusCode = await send(rec.url, { headers: webhookHeaders(secret, rec.delivery_id, timestamp, rec.body), body: rec.body, timeoutMs: deliveryPolicy().timeoutMs });
  } catch (e) {
    forbidden = e instanceof AppError && e.code === 'target_forbidden';
    error = (e as Error).message ?? String(e);
  }
  const result = { status_code: statusCode, error: error ?? (statusCode !== null && (statusCode < 200 || statusCode > 299) ? `The endpoint answered ${statusCode}` : null), duration_ms: Date.now() - started };

  if (statusCode !== null && statusCode >= 200 && statusCode <= 299) {
    await settle(d, rec, now, result, 'succeeded');
    return 'succeeded';
  }
  if (statusCode === 410) {
    if (webhook) await disableWebhook(d.table, m.tenant_id, webhook.webhook_id, 'The endpoint answered 410 Gone', now);
    await settle(d, rec, now, { ...result, error: webhook ? 'The endpoint answered 410 Gone; the webhook is now disabled' : 'The endpoint answered 410 Gone' }, 'failed');
    return 'failed';
  }
  const waitSeconds = deliveryPolicy().backoffSeconds[rec.attempts - 1];
  if (forbidden || rec.manual || waitSeconds === undefined) {
    await settle(d, rec, now, result, 'failed');
    return 'failed';
  }
  const notBefore = new Date(now.getTime() + waitSeconds * 1000);
  if (!(await settle(d, rec, now, result, 'pending', notBefore))) return 'stale';
  await d.queue.send(
    'deliveries',
    { kind: 'delivery.attempt', tenant_id: m.tenant_id, delivery_id: rec.delivery_id, seq: rec.attempts, not_before: notBefore.toISOString() },
    { delaySeconds: delaySecondsFor(waitSeconds * 1000) },
  );
  return 'retrying';
}

/** Record an attempt's outcome, provided this attempt still holds the claim. */
async function settle(
  d: Deps, rec: DeliveryRecord, now: Date, r: { status_code: number | null; error: string | null; duration_ms: number },
  status: DeliveryStatus, nextAt: Date | null = null,
): Promise<boolean> {
  const entry = { attempt: rec.attempts, at: now.toISOString(), ...r };
  try {
    await d.table.update(dlvKey(rec.tenant_id, rec.delivery_id), {
      set: {
        status, last_status_code: r.status_code, last_error: r.error, next_attempt_at: nextAt?.toISOString() ?? null,
        in_flight_until: null, updated_at: d.clock.now().toISOString(), attempt_log: [...rec.attempt_log, entry].slice(-50),
      },
      condition: { expression: 'attempts = :a', values: { ':a': rec.attempts } },
    });
    return true;
  } catch (e) {
    if (e instanceof ConditionFailedError) {
      log.warn('delivery attempt outcome arrived after its claim was taken over', { delivery_id: rec.delivery_id, attempt: rec.attempts });
      return false;
    }
    throw e;
  }
}

