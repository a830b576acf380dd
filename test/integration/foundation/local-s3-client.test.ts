import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { LocalS3Client } from '../../../functions/adapters/local/local-s3-client.js';
import { S3Blobs } from '../../../functions/adapters/aws/s3-blobs.js';
import { S3_CLIENT_OPTIONS } from '../../../functions/adapters/aws/sdk-options.js';
import { memoryStores } from './stores.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

// The local service's S3 client sends object puts as plain S3 requests (no SDK middleware per
// call) and stores exactly what the SDK would: same body, same content type, errors by S3's names.
let stores: EmbeddedStores;
let client: LocalS3Client;
let sdkSteps = 0;
const config = (endpoint: string) => ({
  ...S3_CLIENT_OPTIONS, endpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, forcePathStyle: true,
  requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED',
}) as const;
beforeAll(async () => {
  ({ stores } = await memoryStores());
  client = new LocalS3Client(config(stores.s3Endpoint));
  // Counts the calls that go through the SDK's middleware stack.
  client.middlewareStack.add((next) => async (args) => (sdkSteps++, next(args)), { step: 'initialize', name: 'countSdkCalls' });
});
afterAll(async () => {
  client?.destroy();
  await stores?.close();
});

describe('LocalS3Client', () => {
  it('puts objects without the SDK stack (text, bytes, keys needing encoding), and reads them back through it', async () => {
    const blobs = new S3Blobs(client, { results: 'test-results', raw: 'test-raw' });
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const odd = "tenants/t 1/runs/r+1/it's (1)*é.json";
    await blobs.put('results', 'a/b.json', JSON.stringify({ é: 'ü', n: 1 }));
    await blobs.put('raw', 'a/b.bin', bytes, 'application/octet-stream');
    await blobs.put('results', odd, 'odd key');
    expect(sdkSteps).toBe(0);
    expect(JSON.parse(Buffer.from((await blobs.get('results', 'a/b.json'))!).toString('utf8'))).toEqual({ é: 'ü', n: 1 });
    expect(await blobs.get('raw', 'a/b.bin')).toEqual(bytes);
    expect(Buffer.from((await blobs.get('results', odd))!).toString()).toBe('odd key');
    const head = await client.send(new HeadObjectCommand({ Bucket: 'test-raw', Key: 'a/b.bin' }));
    expect(head.ContentType).toBe('application/octet-stream');
    expect(head.ContentLength).toBe(5);
    expect(sdkSteps).toBeGreaterThan(0);
  });

  it('stores what the SDK client stores for the same put', async () => {
    const sdk = new S3Client(config(stores.s3Endpoint));
    const body = 'x'.repeat(70_000) + 'é';
    await sdk.send(new PutObjectCommand({ Bucket: 'test-results', Key: 'same/sdk', Body: body, ContentType: 'application/x-ndjson' }));
    await client.send(new PutObjectCommand({ Bucket: 'test-results', Key: 'same/local', Body: body, ContentType: 'application/x-ndjson' }));
    const [a, b] = await Promise.all(['same/sdk', 'same/local'].map((Key) => sdk.send(new GetObjectCommand({ Bucket: 'test-results', Key }))));
    expect(b!.ContentType).toBe(a!.ContentType);
    expect(b!.ETag).toBe(a!.ETag);
    expect(await b!.Body!.transformToString()).toBe(await a!.Body!.transformToString());
  });

  it('fails as the SDK client does: a missing bucket by its S3 name', async () => {
    const put = client.send(new PutObjectCommand({ Bucket: 'no-such-bucket', Key: 'k', Body: 'x' }));
    await expect(put).rejects.toMatchObject({ name: 'NoSuchBucket', $metadata: { httpStatusCode: 404 } });
  });

  it('leaves puts with fields it does not send to the SDK', async () => {
    const before = sdkSteps;
    await client.send(new PutObjectCommand({ Bucket: 'test-results', Key: 'meta', Body: 'm', Metadata: { a: 'b' } }));
    expect(sdkSteps).toBe(before + 1);
    expect((await client.send(new HeadObjectCommand({ Bucket: 'test-results', Key: 'meta' }))).Metadata).toEqual({ a: 'b' });
  });
});
