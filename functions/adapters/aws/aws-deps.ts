import { config } from '../../config.js';
import { fileURLToPath } from 'node:url';
import { setLogLevel, setStackMapper } from '../../core/log.js';
import { bundleStackMapper } from './source-mapped-stacks.js';
import { DynamoTable } from './dynamo-table.js';
import { sqsQueue } from './sqs-queue.js';
import { S3Blobs, s3ClientFor } from './s3-blobs.js';
import { lazy } from './lazy.js';
import { SDK_CLIENT_OPTIONS } from './sdk-options.js';
import { dynamoSdk, kmsSdk, schedulerSdk } from './sdk-modules.js';
import { DirectAuditSink } from '../../core/audit/audit.js';
import { RateLimiter } from '../../core/limits/rate-limiter.js';
import { systemClock } from '../../ports/clock.js';
import type { Deps } from '../../runtime.js';
import { s3CustomerBuckets } from './customer-bucket.js';
import { egressCheck } from '../../core/events/egress.js';
import type { Scheduler } from '../../ports/scheduler.js';
import type { Secrets } from '../../ports/secrets.js';
import { configuredModel } from '../configured-model.js';
import { scheduleRequest } from './schedule-request.js';

// Cold start: every function reads the table (authentication, audit, rate limits), so the
// DynamoDB client is created with the deps. Every other client, and its SDK module, is created on
// the first call of a port method, its SDK loaded by `require` then (sdk-modules.ts), so an API
// function that never sends to SQS, S3, Scheduler or KMS never loads those SDKs. (A static import
// would be hoisted to the top of the bundle and loaded at init even when unused.)

/** Lambda composition root: built once per cold start. */
export function buildAwsDeps(): Deps {
  const c = config();
  setLogLevel(c.logLevel);
  // In a bundle this module is a chunk of it, in the bundle's folder: each file's map lies beside it.
  setStackMapper(bundleStackMapper(fileURLToPath(import.meta.url)));
  // Endpoint overrides exist for DynamoDB-/S3-compatible stand-ins (tests run the bundled Lambda
  // handlers against dynalite and s3rver); on AWS they are unset.
  const table = new DynamoTable(c.table, new (dynamoSdk().DynamoDBClient)({ ...SDK_CLIENT_OPTIONS, ...(c.dynamoEndpoint ? { endpoint: c.dynamoEndpoint } : {}) }));
  const queue = sqsQueue(c);
  const sched = lazy(async () => {
    const sdk = schedulerSdk();
    const { toEventBridgeCron } = await import('../../core/jobs/eventbridge-cron.js');
    return { client: new sdk.SchedulerClient({ ...SDK_CLIENT_OPTIONS }), sdk, toEventBridgeCron };
  });
  const scheduler: Scheduler = {
    async upsert(name, cron, payload, enabled, timezone = 'UTC') {
      const { client, sdk, toEventBridgeCron } = await sched();
      const { CreateScheduleCommand, UpdateScheduleCommand, ResourceNotFoundException, ConflictException } = sdk;
      const input = scheduleRequest(name, toEventBridgeCron(cron), payload, enabled, timezone, { group: c.schedulerGroup, queueArn: c.jobsQueueArn!, roleArn: c.schedulerRoleArn! });
      try {
        await client.send(new UpdateScheduleCommand(input));
      } catch (e) {
        if (!(e instanceof ResourceNotFoundException)) throw e;
        try {
          await client.send(new CreateScheduleCommand(input));
        } catch (e2) {
          if (!(e2 instanceof ConflictException)) throw e2;
          await client.send(new UpdateScheduleCommand(input));
        }
      }
    },
    async remove(name) {
      const { client, sdk } = await sched();
      try {
        await client.send(new sdk.DeleteScheduleCommand({ Name: name, GroupName: c.schedulerGroup }));
      } catch (e) {
        if (!(e instanceof sdk.ResourceNotFoundException)) throw e;
      }
    },
  };

  const kms = lazy(async () => {
    const sdk = kmsSdk();
    return { client: new sdk.KMSClient({ ...SDK_CLIENT_OPTIONS }), sdk };
  });
  const secrets: Secrets = {
    async encrypt(plaintext, context) {
      const { client, sdk } = await kms();
      const r = await client.send(new sdk.EncryptCommand({ KeyId: c.kmsKeyId!, Plaintext: Buffer.from(plaintext), EncryptionContext: context }));
      return `kms.${Buffer.from(r.CiphertextBlob!).toString('base64')}`;
    },
    async decrypt(ciphertext, context) {
      const { client, sdk } = await kms();
      const r = await client.send(new sdk.DecryptCommand({ CiphertextBlob: Buffer.from(ciphertext.replace(/^kms\./, ''), 'base64'), EncryptionContext: context }));
      return Buffer.from(r.Plaintext!).toString('utf8');
    },
  };

  const blobs = new S3Blobs(() => s3ClientFor(c.s3Endpoint), { results: c.resultsBucket, raw: c.rawBucket });
  return { config: c, table, blobs, queue, scheduler, secrets, clock: systemClock, audit: new DirectAuditSink(table), rateLimiter: new RateLimiter(table), buckets: s3CustomerBuckets(egressCheck(c)), model: configuredModel(c, 'bedrock') };
}

