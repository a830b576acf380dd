import { S3Client, PutObjectCommand, GetObjectCommand, DeleteObjectCommand, NoSuchKey } from '@aws-sdk/client-s3';
import type { Blobs, BucketName } from '../../ports/blobs.js';

/** The Blobs port over the S3 API: AWS S3 in the cloud, s3rver locally. */
export class S3Blobs implements Blobs {
  constructor(private readonly s3: S3Client, private readonly buckets: Record<BucketName, string>) {}

  async put(bucket: BucketName, key: string, body: string | Uint8Array, contentType = 'application/json'): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.buckets[bucket], Key: key, Body: body, ContentType: contentType }));
  }

  async get(bucket: BucketName, key: string): Promise<Uint8Array | undefined> {
    try {
      const r = await this.s3.send(new GetObjectCommand({ Bucket: this.buckets[bucket], Key: key }));
      return r.Body ? await r.Body.transformToByteArray() : undefined;
    } catch (e) {
      if (e instanceof NoSuchKey || (e as { name?: string }).name === 'NoSuchKey') return undefined;
      throw e;
    }
  }

  async delete(bucket: BucketName, key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.buckets[bucket], Key: key }));
  }
}
