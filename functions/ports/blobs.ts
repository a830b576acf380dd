/** Object storage (S3 on AWS, s3rver locally). Bucket names are logical: 'results' | 'raw'. */
export type BucketName = 'results' | 'raw';
export interface Blobs {
  put(bucket: BucketName, key: string, body: string | Uint8Array, contentType?: string): Promise<void>;
  /** Undefined when the object does not exist. */
  get(bucket: BucketName, key: string): Promise<Uint8Array | undefined>;
  delete(bucket: BucketName, key: string): Promise<void>;
}
