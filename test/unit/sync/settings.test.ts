import { describe, expect, it } from 'vitest';
import { storageSettingsPutSchema, publicStorageSettings } from '../../../functions/core/sync/settings.js';
import { syncObjectKey, verifyObjectKey } from '../../../functions/core/sync/bucket-sync.js';
import { s3ErrorMessage } from '../../../functions/adapters/aws/customer-bucket.js';

const sync = { endpoint: 'https://s3.eu-central-1.amazonaws.com', bucket: 'acme-results', access_key_id: 'AKIAEXAMPLE', secret_access_key: 's3cr3t' };

describe('bucket sync object names (SPEC.md 2.6)', () => {
  it('writes results/<query_id>/<timestamp>.json with the storage key timestamp', () => {
    expect(syncObjectKey('qry_01jd', new Date('2026-11-22T08:00:00.000Z'))).toBe('results/qry_01jd/2026-11-22T08-00-00.000Z.json');
    expect(verifyObjectKey(new Date('2026-11-22T08:00:00.000Z'))).toBe('results/.gleaner-verify-2026-11-22T08-00-00.000Z.json');
  });
});

describe('storage settings body', () => {
  it('accepts sync and retention together or apart, and sync: null', () => {
    expect(storageSettingsPutSchema.parse({ sync, retention_days: 30 })).toEqual({ sync, retention_days: 30 });
    expect(storageSettingsPutSchema.parse({ retention_days: null })).toEqual({ retention_days: null });
    expect(storageSettingsPutSchema.parse({ sync: null })).toEqual({ sync: null });
  });
  it.each([
    [{}],
    [{ retention_days: 0 }],
    [{ retention_days: 1.5 }],
    [{ sync: { ...sync, bucket: 'UPPER' } }],
    [{ sync: { ...sync, endpoint: 'not a url' } }],
    [{ sync: { ...sync, extra: 1 } }],
    [{ sync: { ...sync, access_key_id: '' } }],
  ])('refuses %j', (body) => {
    expect(storageSettingsPutSchema.safeParse(body).success).toBe(false);
  });
  it('never returns the secret', () => {
    const view = publicStorageSettings({
      sync: { endpoint: sync.endpoint, bucket: sync.bucket, access_key_id: sync.access_key_id, region: 'eu-central-1', force_path_style: false, secret_ciphertext: 'v1.abc', updated_at: 't' },
      retention_days: null, updated_at: 't', last_test: null, last_sync: null,
    });
    expect(JSON.stringify(view)).not.toContain('v1.abc');
    expect(view.sync).toMatchObject({ secret_access_key_set: true });
  });
});

describe('S3 error messages', () => {
  it('names the S3 code, the status and the message', () => {
    const e = Object.assign(new Error('The specified bucket does not exist'), { name: 'NoSuchBucket', $metadata: { httpStatusCode: 404 } });
    expect(s3ErrorMessage(e)).toBe('NoSuchBucket (HTTP 404) The specified bucket does not exist');
    expect(s3ErrorMessage(new Error('connect ECONNREFUSED'))).toBe('connect ECONNREFUSED');
  });
});
