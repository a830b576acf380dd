import type { QueueName } from '../../core/queue-messages.js';
import { lazy } from './lazy.js';
import type { Config } from '../../config.js';
import type { Queue, QueueReceiver } from '../../ports/queue.js';
import { SDK_CLIENT_OPTIONS } from './sdk-options.js';
import { sqsSdk } from './sdk-modules.js';

/** SQS keeps a received message hidden for at most 12 hours. */
const MAX_VISIBILITY_SECONDS = 43_200;

/** Loaded and created on first use: a function that never touches a queue never loads the SQS SDK. */
const sqs = lazy(async () => {
  const sdk = sqsSdk();
  return { client: new sdk.SQSClient({ ...SDK_CLIENT_OPTIONS }), sdk };
});

/**
 * The queues' message schemas, built on the first send: every API function wires a queue, but
 * most never send, and building every queue's zod schemas cost each of them a few ms of init.
 */
const messages = lazy(() => import('../../core/queue-messages.js'));

const queueUrl = (c: Config, q: QueueName): string => {
  const url = { runs: c.queueRuns, queries: c.queueQueries, deliveries: c.queueDeliveries, jobs: c.queueJobs }[q];
  if (!url) throw new Error(`Queue ${q} is not configured for this function`);
  return url;
};

/** The producer side on SQS: every message is checked against its queue's schema before it is sent. */
export function sqsQueue(c: Config): Queue {
  return {
    async send(q, message, opts) {
      const body = (await messages()).encodeMessage(q, message);
      const { client, sdk } = await sqs();
      // SQS fair queues: the tenant is the message group, so one tenant's burst (a 100,000-page
      // crawl) does not hold back another tenant's messages on the same standard queue.
      const tenant = (message as { tenant_id?: string }).tenant_id;
      await client.send(new sdk.SendMessageCommand({ QueueUrl: queueUrl(c, q), MessageBody: body, DelaySeconds: opts?.delaySeconds, ...(tenant ? { MessageGroupId: tenant } : {}) }));
    },
  };
}

/**
 * The consumer side on SQS, for the worker interpreter: a retry's backoff is the record's new
 * visibility timeout (ChangeMessageVisibility on the worker's own queue), and a dead record is
 * sent to the worker's dead-letter queue with the reason as message attributes (the function
 * then reports it as processed, so the source queue deletes it).
 */
export function sqsReceiver(d: { config: Config }): QueueReceiver {
  const c = d.config;
  return {
    async retryAfter(q, record, seconds) {
      const VisibilityTimeout = Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.ceil(seconds)));
      const { client, sdk } = await sqs();
      await client.send(new sdk.ChangeMessageVisibilityCommand({ QueueUrl: queueUrl(c, q), ReceiptHandle: record.receiptHandle, VisibilityTimeout }));
    },
    async deadLetter(q, record, reason) {
      // Without the DLQ's address the record is reported as failed instead: SQS itself moves it
      // to the DLQ once it has been received maxReceiveCount times, so it is never lost.
      if (!c.deadLetterQueue) throw new Error(`No dead-letter queue configured for the ${q} worker`);
      const { client, sdk } = await sqs();
      await client.send(
        new sdk.SendMessageCommand({
          QueueUrl: c.deadLetterQueue,
          MessageBody: record.body,
          MessageAttributes: {
            error: { DataType: 'String', StringValue: reason.slice(0, 4000) || 'unknown' },
            source_queue: { DataType: 'String', StringValue: q },
            source_message_id: { DataType: 'String', StringValue: record.messageId },
            receive_count: { DataType: 'Number', StringValue: String(record.receiveCount) },
          },
        }),
      );
    },
  };
}
