import type { S3Client } from '@aws-sdk/client-s3';
import { GuardedHttpAgent, GuardedHttpsAgent } from '../../core/sync/guarded-agent.js';
import { lazy } from './lazy.js';
import type { HostChecker } from '../../core/governance/guarded-connector.js';
import type { CustomerBucket, CustomerBucketConfig, CustomerBuckets } from '../../ports/customer-bucket.js';
import { S3_CLIENT_OPTIONS } from './sdk-options.js';
import { s3Sdk } from './sdk-modules.js';

export type { CustomerBucket, CustomerBucketConfig } from '../../ports/customer-bucket.js';

/**
 * An S3 client for the customer's endpoint whose every connection goes through the egress guard:
 * the SDK's node handler is given agents that vet `host:port` at connect time and dial the vetted
 * address. That covers what a one-off endpoint check cannot: virtual-hosted names
 * (`<bucket>.<endpoint>`), redirects to other regions and DNS answers that change after the check.
 * No retries inside the SDK: the queue retries the whole message.
 *
 * This is the one place outside adapters/ that builds an AWS SDK client; it talks to a
 * customer's endpoint with the customer's credentials, not to the service's own infrastructure.
 */
export function customerBucket(guard: HostChecker, c: CustomerBucketConfig, opts: { timeoutMs?: number } = {}): CustomerBucket {
  const httpAgent = new GuardedHttpAgent(guard);
  const httpsAgent = new GuardedHttpsAgent(guard);
  // The S3 SDK is loaded (required) on the first put: the API function that imports bucket sync to test a
  // bucket loads it only when it tests one.
  let created: S3Client | undefined;
  const client = lazy(async () => {
    const { S3Client } = s3Sdk();
    created = new S3Client({
      ...S3_CLIENT_OPTIONS,
      endpoint: c.endpoint,
      region: c.region,
      credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
      forcePathStyle: c.forcePathStyle,
      // Many S3-compatible stores reject the flexible checksum headers newer SDKs send by default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 1,
      requestHandler: { httpAgent, httpsAgent, connectionTimeout: 10_000, requestTimeout: opts.timeoutMs ?? 30_000 },
    });
    return created;
  });
  return {
    async put(key, body, contentType) {
      const { PutObjectCommand } = s3Sdk();
      const s3 = await client();
      await s3.send(new PutObjectCommand({ Bucket: c.bucket, Key: key, Body: body, ContentType: contentType }));
    },
    close() {
      created?.destroy();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/** A readable one-line reason from an S3 (or network, or guard) error. */
export function s3ErrorMessage(err: unknown): string {
  const e = err as { name?: string; message?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  const code = e.Code ?? e.name;
  const status = e.$metadata?.httpStatusCode;
  const msg = e.message && e.message !== code && e.message !== 'UnknownError' ? e.message : '';
  return [code && code !== 'Error' ? code : '', status ? `(HTTP ${status})` : '', msg].filter(Boolean).join(' ').trim() || 'Unknown error';
}

/** The CustomerBuckets port on S3, every connection vetted by `guard`. */
export const s3CustomerBuckets = (guard: HostChecker): CustomerBuckets => ({
  open: (c) => customerBucket(guard, c),
  describeError: s3ErrorMessage,
});
