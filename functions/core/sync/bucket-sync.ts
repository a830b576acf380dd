import { AppError, NonRetryableError, badRequest } from '../errors.js';
import { getQuery } from '../queries/queries.js';
import { keyTimestamp, readResultFile } from '../storage/result-files.js';
import type { CustomerBucket, CustomerBucketConfig } from '../../ports/customer-bucket.js';
import { getStorageSettings, recordSyncOutcome, syncSecret, type StoredSync } from './settings.js';
import type { Deps } from '../../runtime.js';

/** The fixed neutral prefix of every synced object (SPEC.md 2.6). */
export const SYNC_PREFIX = 'results';

// The deliveries queue's messages live with every other queue message (core/queue-messages.ts).
export { syncPutMessage, type SyncPut } from '../queue-messages.js';

/** `results/<query_id>/<timestamp>.json`, the timestamp as in storage keys (2026-11-22T08-00-00.000Z). */
export const syncObjectKey = (queryId: string, at: Date) => `${SYNC_PREFIX}/${queryId}/${keyTimestamp(at)}.json`;
/** The "Save and test" probe object. */
export const verifyObjectKey = (at: Date) => `${SYNC_PREFIX}/.gleaner-verify-${keyTimestamp(at)}.json`;

export type BucketFactory = (c: CustomerBucketConfig) => CustomerBucket;

async function openBucket(d: Deps, tenantId: string, s: StoredSync, factory?: BucketFactory): Promise<CustomerBucket> {
  const cfg: CustomerBucketConfig = {
    endpoint: s.endpoint, bucket: s.bucket, region: s.region, forcePathStyle: s.force_path_style,
    accessKeyId: s.access_key_id, secretAccessKey: await syncSecret(d.secrets, tenantId, s),
  };
  return (factory ?? ((c) => d.buckets.open(c)))(cfg);
}

/** A refused target or an S3 4xx (bad credentials, missing bucket) will not heal by itself. */
function classify(err: unknown, message: string): Error {
  if (err instanceof AppError) return err.status >= 500 ? new Error(message) : new NonRetryableError(message, err.code);
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status && status >= 400 && status < 500 && status !== 408 && status !== 429) return new NonRetryableError(message, 'bucket_sync_failed');
  return new Error(message);
}

/**
 * Copy a finished job run's result file to the tenant's bucket as `results/<query_id>/<ts>.json`.
 * Idempotent (a retry overwrites the same object). Does nothing when sync is off or the run failed.
 * @throws a retryable Error for transient failures, NonRetryableError for lasting ones.
 */
export async function syncResult(d: Deps, tenantId: string, queryId: string, factory?: BucketFactory): Promise<{ key: string } | undefined> {
  const settings = await getStorageSettings(d.table, tenantId);
  if (!settings.sync) return undefined;
  const q = await getQuery(d.table, tenantId, queryId);
  if (q.status !== 'completed') return undefined;
  const { body } = await readResultFile(d.table, d.blobs, tenantId, q.result_key ?? q.query_id);
  const key = syncObjectKey(q.query_id, new Date(q.job_run_at ?? q.completed_at ?? q.created_at));
  const bucket = await openBucket(d, tenantId, settings.sync, factory);
  const at = d.clock.now().toISOString();
  try {
    await bucket.put(key, body, 'application/json');
  } catch (err) {
    const message = `Bucket sync to ${settings.sync.bucket} failed: ${d.buckets.describeError(err)}`;
    await recordSyncOutcome(d.table, tenantId, 'last_sync', { ok: false, at, key, query_id: queryId, error: message });
    throw classify(err, message);
  } finally {
    bucket.close();
  }
  await recordSyncOutcome(d.table, tenantId, 'last_sync', { ok: true, at, key, query_id: queryId, error: null });
  return { key };
}

/**
 * "Save and test": upload a small verification object with the customer's credentials.
 * @throws AppError 400 `bucket_test_failed` carrying the S3 error, or `invalid_request` when sync is off.
 */
export async function testBucketSync(d: Deps, tenantId: string, now: Date, factory?: BucketFactory): Promise<{ ok: true; key: string; bucket: string; at: string }> {
  const settings = await getStorageSettings(d.table, tenantId);
  if (!settings.sync) throw badRequest('Bucket sync is not configured: PUT /dashboard/api/settings/storage with sync first');
  const key = verifyObjectKey(now);
  const bucket = await openBucket(d, tenantId, settings.sync, factory);
  const at = now.toISOString();
  try {
    await bucket.put(key, JSON.stringify({ service: 'gleaner', purpose: 'bucket sync verification', at }), 'application/json');
  } catch (err) {
    const message = `Could not write to bucket ${settings.sync.bucket} at ${settings.sync.endpoint}: ${d.buckets.describeError(err)}`;
    await recordSyncOutcome(d.table, tenantId, 'last_test', { ok: false, at, key, error: message });
    throw new AppError(400, 'bucket_test_failed', message);
  } finally {
    bucket.close();
  }
  await recordSyncOutcome(d.table, tenantId, 'last_test', { ok: true, at, key, error: null });
  return { ok: true, key, bucket: settings.sync.bucket, at };
}
