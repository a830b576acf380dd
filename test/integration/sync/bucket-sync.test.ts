import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../jobs/harness.js';
import { startCanary, type Canary } from '../governance/loopback.js';
import { startFakeBucket, type FakeBucket } from '../../fixtures/s3-bucket.js';
import { EgressGuard } from '../../../functions/core/governance/index.js';
import { customerBucket } from '../../../functions/adapters/aws/customer-bucket.js';
import { syncResult, testBucketSync } from '../../../functions/core/sync/bucket-sync.js';
import { getStorageSettings, putStorageSettings } from '../../../functions/core/sync/settings.js';
import { sweepRetention, tenantsWithRetention } from '../../../functions/core/sync/retention.js';
import { submitQuery, transitionQuery } from '../../../functions/core/queries/queries.js';
import { listResultFiles, putResultFile, resultKeyFor } from '../../../functions/core/storage/result-files.js';
import { NonRetryableError } from '../../../functions/core/errors.js';

let h: Harness;
let bucket: FakeBucket;
let canary: Canary;

beforeAll(async () => {
  [bucket, canary] = await Promise.all([startFakeBucket('sync-target'), startCanary()]);
  h = await startHarness({ GLEANER_EGRESS_ALLOW: bucket.hostPort });
});
afterAll(async () => Promise.all([h?.close(), bucket?.close(), canary?.close()]));

const cfg = (over: Partial<Parameters<typeof customerBucket>[1]> = {}) => ({
  endpoint: bucket.endpoint, bucket: bucket.bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'any', forcePathStyle: true, ...over,
});

describe('the customer bucket client goes through the egress guard', () => {
  it('writes to an allowed endpoint', async () => {
    const guard = new EgressGuard({ allow: [bucket.hostPort], userAgent: 'test' });
    const b = customerBucket(guard, cfg());
    await b.put('results/probe.json', '{"a":1}', 'application/json');
    b.close();
    expect(await bucket.get('results/probe.json')).toBe('{"a":1}');
  });

  it('refuses a loopback endpoint that is not allowed, at connect time, without connecting', async () => {
    const guard = new EgressGuard({ allow: [bucket.hostPort], userAgent: 'test' });
    const b = customerBucket(guard, cfg({ endpoint: `http://127.0.0.1:${canary.port}` }));
    await expect(b.put('results/x.json', '{}', 'application/json')).rejects.toMatchObject({ code: 'target_forbidden' });
    b.close();
    // A name that resolves to loopback (DNS rebinding): vetted when the socket is opened.
    const rebinding = new EgressGuard({ allow: [bucket.hostPort], userAgent: 'test', resolve: async () => ['127.0.0.1'] });
    const c = customerBucket(rebinding, cfg({ endpoint: `http://bucket.rebind.test:${canary.port}` }));
    await expect(c.put('results/x.json', '{}', 'application/json')).rejects.toMatchObject({ code: 'target_forbidden' });
    c.close();
    expect(canary.connections()).toBe(0);
  });
});

describe('bucket sync and retention', () => {
  const T = 'ten_sync';
  let queryId: string;
  let runAt: Date;

  beforeAll(async () => {
    runAt = new Date('2026-11-22T08:00:00.000Z');
    const q = await submitQuery(h.deps.table, h.deps.queue, T, { prompt: 'acme', sources: ['x'], limit: 10 }, h.clock.now, { jobId: 'job_sync', jobRunAt: runAt });
    queryId = q.query_id;
    const key = resultKeyFor(q.query_id, runAt);
    await putResultFile(h.deps.table, h.deps.blobs, T, { key, query_id: q.query_id, job_id: 'job_sync', created_at: h.clock.now.toISOString() }, { items: [1, 2, 3] });
    await transitionQuery(h.deps.table, T, q.query_id, { status: 'completed', completed_at: h.clock.now.toISOString(), result_key: key }, ['queued']);
  });

  it('does nothing while sync is off', async () => {
    expect(await syncResult(h.deps, T, queryId)).toBeUndefined();
  });

  it('copies the result to results/<query_id>/<timestamp>.json and records it', async () => {
    await putStorageSettings(h.deps, T, { sync: { endpoint: bucket.endpoint, bucket: bucket.bucket, access_key_id: 'S3RVER', secret_access_key: 'sekrit' } }, h.clock.now);
    expect(await syncResult(h.deps, T, queryId)).toEqual({ key: `results/${queryId}/2026-11-22T08-00-00.000Z.json` });
    expect(JSON.parse(await bucket.get(`results/${queryId}/2026-11-22T08-00-00.000Z.json`))).toEqual({ items: [1, 2, 3] });
    expect((await getStorageSettings(h.deps.table, T)).last_sync).toMatchObject({ ok: true, query_id: queryId });
    expect(await testBucketSync(h.deps, T, h.clock.now)).toMatchObject({ ok: true, key: 'results/.gleaner-verify-' + h.clock.now.toISOString().replace(/:/g, '-') + '.json' });
  });

  it('a missing bucket is a lasting failure (not retried) and is recorded', async () => {
    await putStorageSettings(h.deps, T, { sync: { endpoint: bucket.endpoint, bucket: 'missing-bucket', access_key_id: 'S3RVER' } }, h.clock.now);
    const err = await syncResult(h.deps, T, queryId).catch((e) => e);
    expect(err).toBeInstanceOf(NonRetryableError);
    expect(err.message).toContain('NoSuchBucket');
    expect((await getStorageSettings(h.deps.table, T)).last_sync).toMatchObject({ ok: false, error: expect.stringContaining('NoSuchBucket') });
    await expect(testBucketSync(h.deps, T, h.clock.now)).rejects.toMatchObject({ status: 400, code: 'bucket_test_failed' });
  });

  it('retention deletes files older than retention_days only, and lists the tenant for the sweeper', async () => {
    expect(await tenantsWithRetention(h.deps.table)).not.toContain(T);
    await putStorageSettings(h.deps, T, { retention_days: 7 }, h.clock.now);
    expect(await tenantsWithRetention(h.deps.table)).toContain(T);
    const day = 86_400_000;
    expect(await sweepRetention(h.deps, T, new Date(h.clock.now.getTime() + 6 * day))).toEqual({ deleted: 0, more: false });
    for (let i = 0; i < 3; i++)
      await putResultFile(h.deps.table, h.deps.blobs, T, { key: `qry_old${i}`, query_id: `qry_old${i}`, job_id: null, created_at: new Date(h.clock.now.getTime() - 30 * day).toISOString() }, { i });
    expect(await sweepRetention(h.deps, T, h.clock.now, { maxDeletes: 2 })).toEqual({ deleted: 2, more: true });
    expect(await sweepRetention(h.deps, T, h.clock.now)).toEqual({ deleted: 1, more: false });
    expect((await listResultFiles(h.deps.table, T, { limit: 10 })).data.map((f) => f.query_id)).toEqual([queryId]);
    await putStorageSettings(h.deps, T, { retention_days: null }, h.clock.now);
    expect(await tenantsWithRetention(h.deps.table)).not.toContain(T);
  });
});
