import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import { ConditionFailedError, notFound } from '../errors.js';
import { checkOutboundUrl, egressCheck } from '../events/egress.js';
import { generateWebhookSecret } from './signature.js';
import type { Deps } from '../../runtime.js';
import type { Table } from '../../ports/table.js';
import type { Secrets } from '../../ports/secrets.js';

/** Event types a registered endpoint can subscribe to. */
export const WEBHOOK_EVENTS = ['job.completed', 'run.completed', 'page.changed', 'search.completed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** POST /v1/webhooks body (SPEC.md 2.5, API.md "Webhooks and events"). */
export const webhookCreateSchema = z.strictObject({
  url: z.string().trim().url('url must be an absolute URL').max(2048),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { message: `each event must be one of ${WEBHOOK_EVENTS.join(', ')}` }))
    .min(1, 'give at least one event')
    .max(WEBHOOK_EVENTS.length)
    .refine((e) => new Set(e).size === e.length, 'events must not repeat')
    .default(['job.completed']),
});
export type WebhookCreate = z.infer<typeof webhookCreateSchema>;

export const webhookRecordSchema = z.object({
  webhook_id: z.string(),
  tenant_id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  status: z.enum(['enabled', 'disabled']),
  created_at: z.string(),
  disabled_at: z.string().nullable(),
  disabled_reason: z.string().nullable(),
  secret_ciphertext: z.string(),
});
export type WebhookRecord = z.infer<typeof webhookRecordSchema>;

/** Public shape: never the secret (it is shown once, at creation). */
export const publicWebhook = (w: WebhookRecord) => ({
  webhook_id: w.webhook_id,
  url: w.url,
  events: w.events,
  status: w.status,
  created_at: w.created_at,
  disabled_at: w.disabled_at,
  disabled_reason: w.disabled_reason,
});

const whKey = (tenantId: string, id: string) => keys.record(tenantId, 'WHK', id);
const secretCtx = (tenantId: string, webhookId: string) => ({ tenant_id: tenantId, purpose: 'webhook-secret', webhook_id: webhookId });

/** Register an endpoint. Returns the record and its secret, which is stored encrypted and shown only now. */
export async function createWebhook(d: Deps, tenantId: string, input: WebhookCreate, now: Date): Promise<{ webhook: WebhookRecord; secret: string }> {
  const url = (await checkOutboundUrl(egressCheck(d.config), input.url, 'url')).href;
  const webhookId = newId('whk');
  const secret = generateWebhookSecret();
  const webhook: WebhookRecord = {
    webhook_id: webhookId,
    tenant_id: tenantId,
    url,
    events: input.events,
    status: 'enabled',
    created_at: now.toISOString(),
    disabled_at: null,
    disabled_reason: null,
    secret_ciphertext: await d.secrets.encrypt(secret, secretCtx(tenantId, webhookId)),
  };
  await d.table.put({ ...whKey(tenantId, webhookId), ...webhook }, { condition: { expression: 'attribute_not_exists(pk)' } });
  return { webhook, secret };
}

export async function getWebhook(table: Table, tenantId: string, webhookId: string): Promise<WebhookRecord> {
  const i = await table.get(whKey(tenantId, webhookId), { consistent: true });
  if (!i) throw notFound('Webhook');
  return webhookRecordSchema.parse(i);
}

export async function webhookSecret(secrets: Secrets, w: WebhookRecord): Promise<string> {
  return secrets.decrypt(w.secret_ciphertext, secretCtx(w.tenant_id, w.webhook_id));
}

/** Newest first. */
export async function listWebhooks(table: Table, tenantId: string, q: { limit: number; cursor?: string }) {
  const page = await table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: keys.recordPrefix('WHK'), descending: true, limit: q.limit, cursor: q.cursor });
  return { data: page.items.map((i) => webhookRecordSchema.parse(i)), next_cursor: page.cursor };
}

/** Every enabled endpoint of the tenant subscribed to `event` (fan-out targets). */
export async function subscribedWebhooks(table: Table, tenantId: string, event: WebhookEvent): Promise<WebhookRecord[]> {
  const out: WebhookRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: keys.recordPrefix('WHK'), limit: 200, cursor, consistent: true });
    for (const i of page.items) {
      const w = webhookRecordSchema.parse(i);
      if (w.status === 'enabled' && w.events.includes(event)) out.push(w);
    }
    cursor = page.cursor ?? undefined;
  } while (cursor);
  return out;
}

export async function deleteWebhook(table: Table, tenantId: string, webhookId: string): Promise<void> {
  try {
    await table.delete(whKey(tenantId, webhookId), { condition: { expression: 'attribute_exists(pk)' } });
  } catch (e) {
    if (e instanceof ConditionFailedError) throw notFound('Webhook');
    throw e;
  }
}

/** Turn a registered endpoint on again (after a 410 disabled it) or off by hand. */
export async function setWebhookStatus(table: Table, tenantId: string, webhookId: string, status: 'enabled' | 'disabled', now: Date): Promise<WebhookRecord> {
  try {
    const r = await table.update(whKey(tenantId, webhookId), {
      set: status === 'enabled' ? { status, disabled_at: null, disabled_reason: null } : { status, disabled_at: now.toISOString(), disabled_reason: 'disabled by request' },
      condition: { expression: 'attribute_exists(pk)' },
    });
    return webhookRecordSchema.parse(r);
  } catch (e) {
    if (e instanceof ConditionFailedError) throw notFound('Webhook');
    throw e;
  }
}

/** The endpoint answered 410 Gone: stop sending to it (Standard Webhooks). */
export async function disableWebhook(table: Table, tenantId: string, webhookId: string, reason: string, now: Date): Promise<void> {
  try {
    await table.update(whKey(tenantId, webhookId), {
      set: { status: 'disabled', disabled_at: now.toISOString(), disabled_reason: reason },
      condition: { expression: 'attribute_exists(pk)' },
    });
  } catch (e) {
    if (!(e instanceof ConditionFailedError)) throw e; // deleted meanwhile
  }
}

const SIGNING_KEY = (tenantId: string) => keys.record(tenantId, 'SET', 'webhooks');
const signingCtx = (tenantId: string) => ({ tenant_id: tenantId, purpose: 'job-webhook-secret' });

/**
 * The tenant's job-webhook signing secret, which signs deliveries to a job's own `webhook_url`
 * (and a run's). Created on first use, stored encrypted; a conditional put makes concurrent first
 * uses agree on one secret.
 */
export async function tenantSigningSecret(table: Table, secrets: Secrets, tenantId: string, now: Date): Promise<{ secret: string; created_at: string }> {
  const existing = await table.get(SIGNING_KEY(tenantId), { consistent: true });
  if (existing?.secret_ciphertext)
    return { secret: await secrets.decrypt(String(existing.secret_ciphertext), signingCtx(tenantId)), created_at: String(existing.created_at) };
  const secret = generateWebhookSecret();
  const created_at = now.toISOString();
  try {
    await table.put(
      { ...SIGNING_KEY(tenantId), secret_ciphertext: await secrets.encrypt(secret, signingCtx(tenantId)), created_at },
      { condition: { expression: 'attribute_not_exists(pk)' } },
    );
    return { secret, created_at };
  } catch (e) {
    if (!(e instanceof ConditionFailedError)) throw e;
    return tenantSigningSecret(table, secrets, tenantId, now);
  }
}
