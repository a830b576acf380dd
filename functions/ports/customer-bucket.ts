/**
 * A customer's own S3-compatible bucket (bucket sync, SPEC.md 2.6). The core owns this port; the
 * S3 adapter (adapters/aws/customer-bucket.ts) implements it with every connection going through
 * the egress guard.
 */
export interface CustomerBucket {
  put(key: string, body: string | Uint8Array, contentType: string): Promise<void>;
  close(): void;
}

export interface CustomerBucketConfig {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** Opens customer buckets and explains their errors in one readable line. */
export interface CustomerBuckets {
  open(c: CustomerBucketConfig): CustomerBucket;
  describeError(err: unknown): string;
}
