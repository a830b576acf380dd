import { createHash } from 'node:crypto';
import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId, randomBase62 } from '../ids.js';
import { AppError, conflict, notFound } from '../errors.js';
import { SCOPES } from '../../scopes.js';
import { parseStored, parseStoredAll } from '../stored.js';
import type { Table } from '../../ports/table.js';

export const KEY_PATTERN = /^glr_[0-9A-Za-z]{28,}$/;
export const scopeSchema = z.enum([...SCOPES, '*']);

/** Stored record. The plaintext is never stored: the partition key is its SHA-256. */
export const apiKeySchema = z.object({
  key_id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  scopes: z.array(scopeSchema),
  prefix: z.string(), // first characters, to recognise a key in lists
  created_at: z.string(),
  expires_at_iso: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  rotated_to: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
export type Scope = z.infer<typeof scopeSchema>;

export const hashKey = (plaintext: string) => createHash('sha256').update(plaintext).digest('hex');
export const generateKey = () => `glr_${randomBase62(32)}`;

/** Public view: never includes the hash. */
export const publicKey = (k: ApiKey) => ({
  key_id: k.key_id,
  name: k.name,
  scopes: k.scopes,
  prefix: k.prefix,
  created_at: k.created_at,
  expires_at: k.expires_at_iso,
  revoked_at: k.revoked_at,
  last_used_at: k.last_used_at,
  // The key that replaced this one (it then works until expires_at, its grace period): the console
  // shows such a key as "retiring", not "active".
  rotated_to: k.rotated_to,
  status: k.revoked_at ? 'revoked' : 'active',
});

export interface CreateKeyInput {
  tenantId: string;
  scopes: Scope[];
  name?: string;
  expiresAt?: Date | null;
  /** Use this plaintext instead of generating one (GLEANER_BOOTSTRAP_API_KEY). */
  plaintext?: string;
}

/**
 * The expiry of a key made (created or rotated) by a caller whose own credential expires at
 * `makerExpiry`: the requested expiry, clamped so the child never outlives its maker (issue 19
 * finding 5: an expiring key could otherwise mint a permanent one). Null = never expires, which
 * only a maker that never expires (a permanent key, a console user) can hand out. Clamping rather
 * than refusing keeps the call useful; the response's `expires_at` shows the result.
 */
export function childKeyExpiry(requested: Date | null, makerExpiry: string | null | undefined): Date | null {
  if (!makerExpiry) return requested;
  const limit = new Date(makerExpiry);
  return !requested || requested.getTime() > limit.getTime() ? limit : requested;
}

/** Create a key. Returns the plaintext once; only its hash is stored. */
export async function createApiKey(table: Table, input: CreateKeyInput, now: Date): Promise<{ key: ApiKey; api_key: string }> {
  const plaintext = input.plaintext ?? generateKey();
  const hash = hashKey(plaintext);
  const key: ApiKey = {
    key_id: newId('key'),
    tenant_id: input.tenantId,
    name: input.name ?? 'API key',
    scopes: input.scopes,
    prefix: plaintext.slice(0, 8),
    created_at: now.toISOString(),
    expires_at_iso: input.expiresAt ? input.expiresAt.toISOString() : null,
    revoked_at: null,
    last_used_at: null,
    rotated_to: null,
  };
  await table.put(
    {
      ...keys.apiKey(hash),
      gsi1pk: keys.tenantKeysIndex(input.tenantId),
      gsi1sk: key.key_id,
      gsi2pk: keys.keyIdIndex(key.key_id),
      gsi2sk: 'KEY',
      ...key,
    },
    { condition: { expression: 'attribute_not_exists(pk)' } },
  );
  return { key, api_key: plaintext };
}

/** Look up a key by plaintext. Undefined when unknown; expiry/revocation are the caller's check (see isUsable). */
export async function findKeyByPlaintext(table: Table, plaintext: string): Promise<ApiKey | undefined> {
  if (!KEY_PATTERN.test(plaintext)) return undefined;
  const i = await table.get(keys.apiKey(hashKey(plaintext)));
  return i ? parseStored(apiKeySchema, i, 'api key') : undefined;
}

export const isUsable = (k: ApiKey, now: Date) =>
  !k.revoked_at && (!k.expires_at_iso || new Date(k.expires_at_iso).getTime() > now.getTime());

export async function listApiKeys(table: Table, tenantId: string): Promise<ApiKey[]> {
  const out: ApiKey[] = [];
  let cursor: string | undefined;
  do {
    const p = await table.query({ index: 'gsi1', pk: keys.tenantKeysIndex(tenantId), cursor, limit: 200 });
    out.push(...parseStoredAll(apiKeySchema, p.items, 'api key'));
    cursor = p.cursor ?? undefined;
  } while (cursor);
  return out;
}

async function locate(table: Table, keyId: string, tenantId?: string) {
  const p = await table.query({ index: 'gsi2', pk: keys.keyIdIndex(keyId), limit: 1 });
  const item = p.items[0];
  const record = item && parseStored(apiKeySchema, item, 'api key');
  if (!item || !record || (tenantId && record.tenant_id !== tenantId)) throw notFound('API key');
  return { key: { pk: item.pk, sk: item.sk }, record };
}

/** A key by its id (the standing of whoever made a job, checked when it fires); undefined when unknown. */
export async function findApiKeyById(table: Table, keyId: string): Promise<ApiKey | undefined> {
  const p = await table.query({ index: 'gsi2', pk: keys.keyIdIndex(keyId), limit: 1 });
  return p.items[0] ? parseStored(apiKeySchema, p.items[0], 'api key') : undefined;
}

export async function revokeApiKey(table: Table, keyId: string, now: Date, tenantId?: string): Promise<ApiKey> {
  const { key } = await locate(table, keyId, tenantId);
  return apiKeySchema.parse(fixNull(await table.update(key, { set: { revoked_at: now.toISOString() } })));
}

/**
 * Rotate: a new key with the same scopes; the old one keeps working for `graceSeconds`
 * (so deployed clients can switch), then expires.
 */
export async function rotateApiKey(
  table: Table, keyId: string, now: Date, graceSeconds: number, tenantId?: string, callerScopes?: readonly string[], callerExpiry?: string | null,
): Promise<{ key: ApiKey; api_key: string; old_key_expires_at: string }> {
  const { key, record } = await locate(table, keyId, tenantId);
  if (record.revoked_at) throw notFound('API key');
  // An expired key can do nothing, rotation included: otherwise a leaked, long-dead key could be
  // brought back to life. A key already rotated has its successor; rotate that one instead.
  if (!isUsable(record, now)) throw conflict('The API key has expired; create a new key instead');
  if (record.rotated_to) throw conflict(`The API key was already rotated to ${record.rotated_to}; rotate that key instead`);
  if (callerScopes) assertCanGrant(callerScopes, record.scopes);
  // The successor inherits the original's expiry: rotation renews the secret, not its lifetime.
  // A caller that expires sooner than that binds the successor too (see childKeyExpiry).
  const expiresAt = childKeyExpiry(record.expires_at_iso ? new Date(record.expires_at_iso) : null, callerExpiry);
  const created = await createApiKey(table, { tenantId: record.tenant_id, scopes: record.scopes, name: record.name, expiresAt }, now);
  const graceEnd = new Date(now.getTime() + graceSeconds * 1000);
  const oldExpiry = record.expires_at_iso && new Date(record.expires_at_iso) < graceEnd ? record.expires_at_iso : graceEnd.toISOString();
  // Conditional: of two concurrent rotations only one leaves a successor in place.
  try {
    await table.update(key, { set: { expires_at_iso: oldExpiry, rotated_to: created.key.key_id }, condition: { expression: 'attribute_not_exists(rotated_to) OR rotated_to = :null', values: { ':null': null } } });
  } catch (e) {
    await table.delete(keys.apiKey(hashKey(created.api_key))).catch(() => undefined);
    if ((e as Error).name === 'ConditionFailedError') throw conflict('The API key was rotated concurrently; rotate its successor instead');
    throw e;
  }
  return { ...created, old_key_expires_at: oldExpiry };
}

/**
 * No key grants what it does not hold: the scopes of a key being created or rotated must all be
 * held by the caller (`*` holds every scope; only `*` may hand out `*`).
 * @throws AppError 403 `forbidden` naming the scopes the caller lacks.
 */
export function assertCanGrant(held: readonly string[], wanted: readonly string[]): void {
  if (held.includes('*')) return;
  const missing = wanted.filter((s) => !held.includes(s));
  if (missing.length)
    throw new AppError(403, 'forbidden', `A key can only grant scopes it holds itself; this one lacks ${missing.join(', ')}`, missing.map((m) => ({ path: 'body.scopes', message: m })));
}

/** Record last use (callers throttle this; it is not on the hot path). */
export async function touchApiKey(table: Table, plaintextHash: string, now: Date): Promise<void> {
  await table.update(keys.apiKey(plaintextHash), { set: { last_used_at: now.toISOString() } });
}

/** Items written by setIfAbsent keep other nulls; normalise missing optionals. */
function fixNull<T extends Record<string, unknown>>(i: T): T {
  for (const f of ['expires_at_iso', 'revoked_at', 'last_used_at', 'rotated_to']) if (!(f in i)) (i as Record<string, unknown>)[f] = null;
  return i;
}
