import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Client } from '@aws-sdk/client-s3';
import { S3Blobs, s3ClientFor } from '../../../functions/adapters/aws/s3-blobs.js';
import { localS3Client, type EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from './stores.js';

// Each object lands in the bucket it was put to, however many puts to both buckets are in flight
// at once. With the SDK's cached middleware stack the endpoint of one bucket was reused for the
// other's puts: a crawl's batch of results went to the raw-log bucket and its items were lost.
let stores: EmbeddedStores;
// On Lambda the region and credentials come from the environment.
const LAMBDA_ENV = { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const saved = Object.fromEntries(Object.keys(LAMBDA_ENV).map((k) => [k, process.env[k]]));
beforeAll(async () => {
  Object.assign(process.env, LAMBDA_ENV);
  ({ stores } = await memoryStores());
});
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await stores?.close();
});

const clients: Array<[string, () => Promise<S3Client>]> = [
  ['the Lambda functions’ client (aws-deps)', () => s3ClientFor(stores.s3Endpoint)],
  ['the local service’s client', async () => localS3Client(stores.s3Endpoint)],
];

describe('S3 buckets', () => {
  for (const [name, make] of clients) {
    it(`${name}: concurrent puts to two buckets each land in their own`, async () => {
      const blobs = new S3Blobs(make, { results: 'test-results', raw: 'test-raw' });
      const keys = Array.from({ length: 60 }, (_, i) => ({ bucket: i % 2 ? ('results' as const) : ('raw' as const), key: `${name.length}/k${i}` }));
      await Promise.all(keys.map((k, i) => blobs.put(k.bucket, k.key, `body ${i}`)));
      for (const [i, k] of keys.entries()) {
        const other = k.bucket === 'results' ? 'raw' : 'results';
        expect(Buffer.from((await blobs.get(k.bucket, k.key))!).toString(), k.key).toBe(`body ${i}`);
        expect(await blobs.get(other, k.key), k.key).toBeUndefined();
      }
    });
  }
});
