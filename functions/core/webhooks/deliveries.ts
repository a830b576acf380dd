import { createHash } from 'node:crypto';
import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import { ConditionFailedError, conflict, notFound } from '../errors.js';
import { getWebhook, subscribedWebhooks, type WebhookEvent } from './webhooks.js';
import type { Deps } from '../../runtime.js';
import type { Table } from '../../ports/table.js';

/**
 * Retry policy of webhook deliveries. The defaults give 8 attempts over about 1.8 days:
 * at once, then after 30 s, 2 min, 10 min, 1 h, 6 h, 12 h and 24 h. SQS delays a message by at
 * most 900 s, so a longer wait is a chain of hops (each hop re-enqueues until `not_before`).
 */
export interface DeliveryPolicy {
  /** Wait before retry n (n = 1…); the number of attempts is `backoffSeconds.length + 1`. */
  backoffSeconds: number[];
  /** Longest single queue delay (SQS: 900). */
  maxHopSeconds: number;
  /** Deadline of one POST, connect to last byte (10 s). */
  timeoutMs: number;
  /** How long a claimed attempt may run before another delivery of the message may take it over. */
  claimMs: number;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  backoffSeconds: [30, 120, 600, 3600, 6 * 3600, 12 * 3600, 24 * 3600],
  maxHopSeconds: 900,
  timeoutMs: 10_000,
  claimMs: 60_000,
};
let policy: DeliveryPolicy = DEFAULT_DELIVERY_POLICY;
/** Tests shorten the waits; `undefined` restores the defaults. */
export const setDeliveryPolicy = (p?: Partial<DeliveryPolicy>) => {
  policy = { ...DEFAULT_DELIVERY_POLICY, ...p };
};
export const deliveryPolicy = () => policy;

export const deliveryStatuses = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

const attemptSchema = z.object({
  attempt: z.number().int(),
  at: z.string(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});

export const deliveryRecordSchema = z.object({
  delivery_id: z.string(),
  tenant_id: z.string(),
  event: z.string(),
  event_key: z.string(),
  /** Registered endpoint; null for a job's or run's own `webhook_url`. */
  webhook_id: z.string().nullable(),
  job_id: z.string().nullable(),
  run_id: z.string().nullable(),
  url: z.string(),
  /** The exact JSON body sent on every attempt. */
  body: z.string(),
  status: z.enum(deliveryStatuses),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Epoch ms until which the current attempt holds its claim; null when none runs. */
  in_flight_until: z.number().nullable(),
  /** A manual retry: one attempt, no automatic retries after it. */
  manual: z.boolean(),
  attempt_log: z.array(attemptSchema),
});
export type DeliveryRecord = z.infer<typeof deliveryRecordSchema>;

/** Public log entry (GET /v1/webhooks/{id}/deliveries). */
export const publicDelivery = (r: DeliveryRecord) => ({
  delivery_id: r.delivery_id,
  webhook_id: r.webhook_id,
  event: r.event,
  url: r.url,
  status: r.status,
  attempts: r.attempts,
  last_status_code: r.last_status_code,
  last_error: r.last_error,
  next_attempt_at: r.next_attempt_at,
  created_at: r.created_at,
  updated_at: r.updated_at,
  payload: JSON.parse(r.body) as unknown,
  attempt_log: r.attempt_log,
});

// The deliveries queue's messages live with every other queue message (core/queue-messages.ts).
export { deliveryAttemptMessage, type DeliveryAttempt } from '../queue-messages.js';

const DELIVERY_TTL_SECONDS = 30 * 86400;
/** Key of a delivery record (attempt-delivery.ts updates it too). */
export const dlvKey = (tenantId: string, id: string) => keys.record(tenantId, 'DLV', id);
const evtKey = (tenantId: string, eventKey: string) => keys.record(tenantId, 'EVT', eventKey);
const webhookIndex = (tenantId: string, webhookId: string) => `TEN#${tenantId}#WHKDLV#${webhookId}`;
const ownerIndex = (tenantId: string, owner: string) => `TEN#${tenantId}#OWNDLV#${owner}`;

/** One event to deliver: its payload, the owner's own URL (job or run), and its dedupe key. */
export interface EventSpec {
  tenantId: string;
  event: WebhookEvent;
  /** Unique per event occurrence (`job.completed:<query_id>`): a redelivered message fans out once. */
  eventKey: string;
  payload: Record<string, unknown>;
  ownUrl: string | null;
  jobId?: string;
  runId?: string;
}

interface Target {
  delivery_id: string;
  webhook_id: string | null;
  url: string;
}

const stableTargetId = (eventKey: string, target: string) => createHash('sha256').update(`${eventKey}\n${target}`).digest('hex').slice(0, 16);

/**
 * Fan an event out: one delivery record per target (the owner's own URL and every enabled
 * endpoint subscribed to the event) and one `delivery.attempt` message each. The target list
 * and body are fixed by the first fan-out of an event (an event record, written with a
 * conditional put), so a redelivered message neither duplicates deliveries nor changes the body.
 * A delivery record that exists but never started (crash between write and enqueue) is enqueued
 * again; the attempt's claim makes a duplicate message harmless.
 * @returns the delivery ids.
 */
export async function fanOut(d: Deps, spec: EventSpec): Promise<string[]> {
  const now = d.clock.now();
  const key = evtKey(spec.tenantId, spec.eventKey);
  let targets: Target[];
  let body: string;
  const existing = await d.table.get(key, { consistent: true });
  if (existing) {
    targets = existing.targets as Target[];
    body = String(existing.body);
  } else {
    const hooks = await subscribedWebhooks(d.table, spec.tenantId, spec.event);
    body = JSON.stringify(spec.payload);
    targets = [
      ...(spec.ownUrl ? [{ delivery_id: newId('dlv'), webhook_id: null, url: spec.ownUrl }] : []),
      ...hooks.map((w) => ({ delivery_id: newId('dlv'), webhook_id: w.webhook_id, url: w.url })),
    ];
    try {
      await d.table.put(
        { ...key, event: spec.event, body, targets, created_at: now.toISOString(), expires_at: Math.floor(now.getTime() / 1000) + DELIVERY_TTL_SECONDS },
        { condition: { expression: 'attribute_not_exists(pk)' } },
      );
    } catch (e) {
      if (!(e instanceof ConditionFailedError)) throw e;
      return fanOut(d, spec); // another delivery of the message won the race: use its targets
    }
  }
  for (const t of targets) {
    const rec: DeliveryRecord = {
      delivery_id: t.delivery_id,
      tenant_id: spec.tenantId,
      event: spec.event,
      event_key: spec.eventKey,
      webhook_id: t.webhook_id,
      job_id: spec.jobId ?? null,
      run_id: spec.runId ?? null,
      url: t.url,
      body,
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      next_attempt_at: now.toISOString(),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      in_flight_until: null,
      manual: false,
      attempt_log: [],
    };
    const owner = t.webhook_id ? webhookIndex(spec.tenantId, t.webhook_id) : ownerIndex(spec.tenantId, spec.jobId ?? spec.runId ?? `target-${stableTargetId(spec.eventKey, t.url)}`);
    let enqueue = true;
    try {
      await d.table.put(
        { ...dlvKey(spec.tenantId, t.delivery_id), ...rec, gsi1pk: owner, gsi1sk: t.delivery_id, expires_at: Math.floor(now.getTime() / 1000) + DELIVERY_TTL_SECONDS },
        { condition: { expression: 'attribute_not_exists(pk)' } },
      );
    } catch (e) {
      if (!(e instanceof ConditionFailedError)) throw e;
      const cur = await getDelivery(d.table, spec.tenantId, t.delivery_id);
      enqueue = cur.status === 'pending' && cur.attempts === 0 && cur.in_flight_until === null;
    }
    if (enqueue) await d.queue.send('deliveries', { kind: 'delivery.attempt', tenant_id: spec.tenantId, delivery_id: t.delivery_id, seq: 0 });
  }
  return targets.map((t) => t.delivery_id);
}

export async function getDelivery(table: Table, tenantId: string, deliveryId: string): Promise<DeliveryRecord> {
  const i = await table.get(dlvKey(tenantId, deliveryId), { consistent: true });
  if (!i) throw notFound('Delivery');
  return deliveryRecordSchema.parse(i);
}

/** A webhook's delivery log, newest first. */
export async function listDeliveries(table: Table, tenantId: string, webhookId: string, q: { limit: number; cursor?: string }) {
  await getWebhook(table, tenantId, webhookId);
  const page = await table.query({ index: 'gsi1', pk: webhookIndex(tenantId, webhookId), descending: true, limit: q.limit, cursor: q.cursor });
  return { data: page.items.map((i) => deliveryRecordSchema.parse(i)), next_cursor: page.cursor };
}

/** POST (through the egress guard) returning the status code; tests may swap it. */
/** Deliveries to a job's or a run's own webhook_url (the owner is the job_id or run_id), newest first. */
export async function listOwnerDeliveries(table: Table, tenantId: string, ownerId: string, q: { limit: number; cursor?: string }) {
  const page = await table.query({ index: 'gsi1', pk: ownerIndex(tenantId, ownerId), descending: true, limit: q.limit, cursor: q.cursor });
  return { data: page.items.map((i) => deliveryRecordSchema.parse(i)), next_cursor: page.cursor };
}

/**
 * Re-queue a finished delivery (POST …/deliveries/{id}/retry): one more attempt with the same
 * `webhook-id` and body, and no automatic retries after it.
 * @throws 404 unknown delivery or one of another webhook; 409 still pending, or webhook disabled.
 */
export async function retryDelivery(d: Deps, tenantId: string, webhookId: string, deliveryId: string, now: Date): Promise<DeliveryRecord> {
  const webhook = await getWebhook(d.table, tenantId, webhookId);
  const rec = await getDelivery(d.table, tenantId, deliveryId).catch(() => undefined);
  if (!rec || rec.webhook_id !== webhookId) throw notFound('Delivery');
  if (webhook.status !== 'enabled') throw conflict('The webhook is disabled; register the endpoint again to receive deliveries');
  if (rec.status === 'pending') throw conflict('The delivery is still pending; it will be attempted again automatically');
  let updated: DeliveryRecord;
  try {
    updated = deliveryRecordSchema.parse(await d.table.update(dlvKey(tenantId, deliveryId), {
      set: { status: 'pending', manual: true, next_attempt_at: now.toISOString(), in_flight_until: null, updated_at: now.toISOString() },
      condition: { expression: '#s = :s AND attempts = :a', names: { '#s': 'status' }, values: { ':s': rec.status, ':a': rec.attempts } },
    }));
  } catch (e) {
    if (e instanceof ConditionFailedError) throw conflict('The delivery changed meanwhile; try again');
    throw e;
  }
  await d.queue.send('deliveries', { kind: 'delivery.attempt', tenant_id: tenantId, delivery_id: deliveryId, seq: updated.attempts });
  return updated;
}
