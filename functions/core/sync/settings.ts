import * as z from 'zod';
import { keys } from '../table-keys.js';
import { badRequest } from '../errors.js';
import { checkForStore, parseStored } from '../stored.js';
import { checkOutboundUrl, egressCheck } from '../events/egress.js';
import type { Deps } from '../../runtime.js';
import type { Table } from '../../ports/table.js';
import type { Secrets } from '../../ports/secrets.js';

/** Bucket sync target as written in Settings > Storage (SPEC.md 2.6). */
export const bucketSyncInputSchema = z.strictObject({
  endpoint: z.string().trim().url('endpoint must be an absolute URL').max(2048),
  bucket: z.string().trim().regex(/^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/, 'bucket must be a valid S3 bucket name (3-63 lowercase letters, digits, dots, hyphens)'),
  access_key_id: z.string().trim().min(1).max(128),
  /** Write-only. May be left out when only other fields change and a key is already stored. */
  secret_access_key: z.string().min(1).max(256).optional(),
  region: z.string().trim().regex(/^[a-z0-9-]{1,32}$/, 'region looks like us-east-1').optional(),
  /** Path-style addressing (`endpoint/bucket/key`); default true except for *.amazonaws.com. */
  force_path_style: z.boolean().optional(),
});

/** PUT /dashboard/api/settings/storage. A field left out keeps its current value; `sync: null` turns sync off. */
export const storageSettingsPutSchema = z
  .strictObject({
    sync: bucketSyncInputSchema.nullable().optional(),
    retention_days: z.number().int('retention_days must be a whole number').min(1).max(36500).nullable().optional(),
  })
  .refine((b) => b.sync !== undefined || b.retention_days !== undefined, 'give sync and/or retention_days');
export type StorageSettingsPut = z.infer<typeof storageSettingsPutSchema>;

const outcomeSchema = z.object({ ok: z.boolean(), at: z.string(), key: z.string().nullable(), error: z.string().nullable() });

const storedSyncSchema = z.object({
  endpoint: z.string(),
  bucket: z.string(),
  access_key_id: z.string(),
  region: z.string(),
  force_path_style: z.boolean(),
  secret_ciphertext: z.string(),
  updated_at: z.string(),
});
export type StoredSync = z.infer<typeof storedSyncSchema>;

export const storageSettingsSchema = z.object({
  sync: storedSyncSchema.nullable(),
  retention_days: z.number().int().nullable(),
  updated_at: z.string().nullable(),
  last_test: outcomeSchema.nullable(),
  last_sync: outcomeSchema.extend({ query_id: z.string() }).nullable(),
});
export type StorageSettings = z.infer<typeof storageSettingsSchema>;

const EMPTY: StorageSettings = { sync: null, retention_days: null, updated_at: null, last_test: null, last_sync: null };

export const settingsKey = (tenantId: string) => keys.record(tenantId, 'SET', 'storage');
/** Tenants with a retention policy are listed under one gsi1 partition, so the sweeper needs no scan. */
export const RETENTION_INDEX = 'RETENTION';
const secretCtx = (tenantId: string) => ({ tenant_id: tenantId, purpose: 'bucket-sync-secret' });

/** Public view: never the secret access key. */
export const publicStorageSettings = (s: StorageSettings) => ({
  sync: s.sync
    ? { endpoint: s.sync.endpoint, bucket: s.sync.bucket, access_key_id: s.sync.access_key_id, region: s.sync.region, force_path_style: s.sync.force_path_style, secret_access_key_set: true, updated_at: s.sync.updated_at }
    : null,
  retention_days: s.retention_days,
  updated_at: s.updated_at,
  last_test: s.last_test,
  last_sync: s.last_sync,
});

export async function getStorageSettings(table: Table, tenantId: string): Promise<StorageSettings> {
  const i = await table.get(settingsKey(tenantId), { consistent: true });
  // An unreadable record is reported and read as "nothing set" (a PUT then replaces it), so it
  // never breaks the settings page, the retention sweep or the other tenants.
  return (i && parseStored(storageSettingsSchema, { ...EMPTY, ...i }, 'storage settings')) || EMPTY;
}

/** The customer's credentials, decrypted for one call (never logged, never returned). */
export async function syncSecret(secrets: Secrets, tenantId: string, s: StoredSync): Promise<string> {
  return secrets.decrypt(s.secret_ciphertext, secretCtx(tenantId));
}

const isAws = (u: URL) => /(^|\.)amazonaws\.com(\.cn)?$/i.test(u.hostname);

/**
 * Save Settings > Storage. The endpoint must be https (http only for an allowed local
 * `host:port`) and pass the egress guard; the secret access key is stored encrypted. Leaving the
 * secret out keeps the stored one, but only for the same endpoint and access key id.
 */
export async function putStorageSettings(d: Deps, tenantId: string, input: StorageSettingsPut, now: Date): Promise<StorageSettings> {
  const cur = await getStorageSettings(d.table, tenantId);
  let sync = cur.sync;
  if (input.sync === null) sync = null;
  else if (input.sync) {
    const url = await checkOutboundUrl(egressCheck(d.config), input.sync.endpoint, 'sync.endpoint');
    if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
      throw badRequest('sync.endpoint is the S3 API origin only (no path or query), e.g. https://s3.eu-central-1.amazonaws.com', [{ path: 'body.sync.endpoint', message: 'expected an origin' }]);
    const endpoint = url.origin;
    let secretCiphertext: string;
    if (input.sync.secret_access_key) secretCiphertext = await d.secrets.encrypt(input.sync.secret_access_key, secretCtx(tenantId));
    else if (cur.sync && cur.sync.endpoint === endpoint && cur.sync.access_key_id === input.sync.access_key_id) secretCiphertext = cur.sync.secret_ciphertext;
    else throw badRequest('sync.secret_access_key is required', [{ path: 'body.sync.secret_access_key', message: 'Required' }]);
    sync = {
      endpoint,
      bucket: input.sync.bucket,
      access_key_id: input.sync.access_key_id,
      region: input.sync.region ?? 'us-east-1',
      force_path_style: input.sync.force_path_style ?? !isAws(url),
      secret_ciphertext: secretCiphertext,
      updated_at: now.toISOString(),
    };
  }
  const retention = input.retention_days === undefined ? cur.retention_days : input.retention_days;
  const next: StorageSettings = { ...cur, sync, retention_days: retention, updated_at: now.toISOString(), ...(input.sync !== undefined ? { last_test: null } : {}) };
  await d.table.put({
    ...settingsKey(tenantId), ...checkForStore(storageSettingsSchema, next, 'body'),
    ...(retention !== null ? { gsi1pk: RETENTION_INDEX, gsi1sk: tenantId } : {}),
  });
  return next;
}

/** Record the outcome of a test upload or a sync (for the settings page). Best effort. */
export async function recordSyncOutcome(table: Table, tenantId: string, field: 'last_test' | 'last_sync', outcome: Record<string, unknown>): Promise<void> {
  await table
    .update(settingsKey(tenantId), { set: { [field]: outcome }, condition: { expression: 'attribute_exists(pk)' } })
    .catch(() => undefined);
}
