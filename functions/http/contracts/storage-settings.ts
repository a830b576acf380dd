import * as z from 'zod';
import { defineContracts } from './contract.js';
import { storageSettingsPutSchema } from '../../core/sync/settings.js';

/** Contracts of settings.storage.get, settings.storage.put, settings.storage.test. */

/** Save and test: the same body as PUT settings/storage, or none to test what is saved. */
export const storageTestBody = storageSettingsPutSchema.optional();
const outcome = z.object({ ok: z.boolean(), at: z.string(), key: z.string().nullable(), error: z.string().nullable() });
const storageSettingsSchema = z.object({
  sync: z.object({ endpoint: z.string(), bucket: z.string(), access_key_id: z.string(), region: z.string(), force_path_style: z.boolean(), secret_access_key_set: z.boolean(), updated_at: z.string() }).nullable(),
  retention_days: z.number().int().nullable(),
  updated_at: z.string().nullable(),
  last_test: outcome.nullable(),
  last_sync: outcome.extend({ query_id: z.string() }).nullable(),
});

export const contracts = defineContracts({
  'settings.storage.get': { summary: 'Bucket sync and retention settings (the secret access key is never returned)', success: { 200: { description: 'Settings', schema: storageSettingsSchema } } },
  'settings.storage.put': {
    summary: 'Save bucket sync (S3-compatible endpoint, bucket, credentials) and/or retention_days',
    body: storageSettingsPutSchema,
    success: { 200: { description: 'Settings', schema: storageSettingsSchema } },
  },
  'settings.storage.test': {
    summary: 'Save and test: save (when a body is given), then upload results/.gleaner-verify-<ts>.json with the customer credentials',
    body: storageTestBody,
    bodyOptional: true,
    success: { 200: { description: 'The verification object was written', schema: z.object({ ok: z.literal(true), key: z.string(), bucket: z.string(), at: z.string() }) } },
  },

});
