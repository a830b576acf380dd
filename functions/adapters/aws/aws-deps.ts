import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SchedulerClient, CreateScheduleCommand, UpdateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, ConflictException } from '@aws-sdk/client-scheduler';
import { KMSClient, EncryptCommand, DecryptCommand } from '@aws-sdk/client-kms';
import { config } from '../../config.js';
import { setLogLevel } from '../../core/log.js';
import { DynamoTable } from './dynamo-table.js';
import { sqsQueue } from './sqs-queue.js';
import { S3Blobs } from './s3-blobs.js';
import { DirectAuditSink } from '../../core/audit/audit.js';
import { RateLimiter } from '../../core/limits/rate-limiter.js';
import { systemClock } from '../../ports/clock.js';
import { toEventBridgeCron } from '../../core/jobs/cron.js';
import type { Deps } from '../../runtime.js';
import type { Scheduler } from '../../ports/scheduler.js';
import type { Secrets } from '../../ports/secrets.js';

/** Lambda composition root: built once per cold start. */
export function buildAwsDeps(): Deps {
  const c = config();
  setLogLevel(c.logLevel);
  // Endpoint overrides exist for DynamoDB-/S3-compatible stand-ins (tests run the bundled Lambda
  // handlers against dynalite and s3rver); on AWS they are unset.
  const table = new DynamoTable(c.table, new DynamoDBClient(c.dynamoEndpoint ? { endpoint: c.dynamoEndpoint } : {}));
  const queue = sqsQueue(c);
  const sched = new SchedulerClient({});
  const scheduler: Scheduler = {
    async upsert(name, cron, payload, enabled) {
      const input = {
        Name: name,
        GroupName: c.schedulerGroup,
        ScheduleExpression: toEventBridgeCron(cron),
        ScheduleExpressionTimezone: 'UTC',
        State: enabled ? ('ENABLED' as const) : ('DISABLED' as const),
        FlexibleTimeWindow: { Mode: 'OFF' as const },
        Target: { Arn: c.jobsQueueArn!, RoleArn: c.schedulerRoleArn!, Input: JSON.stringify({ kind: 'job.fire', ...payload, scheduled_for: '<aws.scheduler.scheduled-time>' }) },
      };
      try {
        await sched.send(new UpdateScheduleCommand(input));
      } catch (e) {
        if (!(e instanceof ResourceNotFoundException)) throw e;
        try {
          await sched.send(new CreateScheduleCommand(input));
        } catch (e2) {
          if (!(e2 instanceof ConflictException)) throw e2;
          await sched.send(new UpdateScheduleCommand(input));
        }
      }
    },
    async remove(name) {
      try {
        await sched.send(new DeleteScheduleCommand({ Name: name, GroupName: c.schedulerGroup }));
      } catch (e) {
        if (!(e instanceof ResourceNotFoundException)) throw e;
      }
    },
  };
  const kms = new KMSClient({});
  const secrets: Secrets = {
    async encrypt(plaintext, context) {
      const r = await kms.send(new EncryptCommand({ KeyId: c.kmsKeyId!, Plaintext: Buffer.from(plaintext), EncryptionContext: context }));
      return `kms.${Buffer.from(r.CiphertextBlob!).toString('base64')}`;
    },
    async decrypt(ciphertext, context) {
      const r = await kms.send(new DecryptCommand({ CiphertextBlob: Buffer.from(ciphertext.replace(/^kms\./, ''), 'base64'), EncryptionContext: context }));
      return Buffer.from(r.Plaintext!).toString('utf8');
    },
  };
  const s3 = new S3Client(c.s3Endpoint ? { endpoint: c.s3Endpoint, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {});
  const blobs = new S3Blobs(s3, { results: c.resultsBucket, raw: c.rawBucket });
  return { config: c, table, blobs, queue, scheduler, secrets, clock: systemClock, audit: new DirectAuditSink(table), rateLimiter: new RateLimiter(table) };
}
