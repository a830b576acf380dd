import type { S3Client } from '@aws-sdk/client-s3';
import type { Blobs, BucketName } from '../../ports/blobs.js';
import { lazy } from './lazy.js';
import { S3_CLIENT_OPTIONS } from './sdk-options.js';
import { s3Sdk } from './sdk-modules.js';

// The S3 SDK is loaded on first use (s3Sdk, which keeps it): a function that never reads or
// writes a blob (most API functions) does not pay for loading it at cold start.

/**
 * The S3 client of the service's own buckets: AWS S3, or an S3 stand-in at `endpoint` (path-style,
 * no flexible checksums: s3rver knows neither). Never with a cached middleware stack (S3_CLIENT_OPTIONS).
 */
export async function s3ClientFor(endpoint?: string): Promise<S3Client> {
  const { S3Client } = s3Sdk();
  return new S3Client({
    ...S3_CLIENT_OPTIONS,
    ...(endpoint ? { endpoint, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
  });
}

/** The Blobs port over the S3 API: AWS S3 in the cloud, s3rver locally. */
export class S3Blobs implements Blobs {
  private readonly s3Client: () => Promise<S3Client>;

  /** @param s3 a client, or a factory called on first use (the Lambda composition root defers it). */
  constructor(s3: S3Client | (() => Promise<S3Client>), private readonly buckets: Record<BucketName, string>) {
    this.s3Client = lazy(async () => (typeof s3 === 'function' ? s3() : s3));
  }

  async put(bucket: BucketName, key: string, body: string | Uint8Array, contentType = 'application/json'): Promise<void> {
    const { PutObjectCommand } = s3Sdk();
    const s3 = await this.s3Client();
    await s3.send(new PutObjectCommand({ Bucket: this.buckets[bucket], Key: key, Body: body, ContentType: contentType }));
  }

  async get(bucket: BucketName, key: string): Promise<Uint8Array | undefined> {
    const { GetObjectCommand, NoSuchKey } = s3Sdk();
    const s3 = await this.s3Client();
    try {
      const r = await s3.send(new GetObjectCommand({ Bucket: this.buckets[bucket], Key: key }));
      return r.Body ? await r.Body.transformToByteArray() : undefined;
    } catch (e) {
      if (e instanceof NoSuchKey || (e as { name?: string }).name === 'NoSuchKey') return undefined;
      throw e;
    }
  }

  async delete(bucket: BucketName, key: string): Promise<void> {
    const { DeleteObjectCommand } = s3Sdk();
    const s3 = await this.s3Client();
    await s3.send(new DeleteObjectCommand({ Bucket: this.buckets[bucket], Key: key }));
  }
}
