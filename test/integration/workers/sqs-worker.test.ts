import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context, SQSRecord } from 'aws-lambda';
import { startSqsEndpoint, type SqsCall } from '../../fixtures/sqs-endpoint.js';
import { loadConfig } from '../../../functions/config.js';
import { log } from '../../../functions/core/log.js';
import { NonRetryableError } from '../../../functions/core/errors.js';
import { defineWorker } from '../../../functions/workers/worker-kit.js';
import type { Deps } from '../../../functions/runtime.js';

// The Lambda side of the interpreter: the worker's exported SQS handler, its real SQS client
// (ChangeMessageVisibility for backoff, SendMessage to the DLQ), against a loopback endpoint.
let sqs: Awaited<ReturnType<typeof startSqsEndpoint>>;
let queueUrl: string;
let dlqUrl: string;
beforeAll(async () => {
  sqs = await startSqsEndpoint();
  Object.assign(process.env, { AWS_ENDPOINT_URL_SQS: sqs.url, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  queueUrl = `${sqs.url}/000000000000/gleaner-jobs`;
  dlqUrl = `${sqs.url}/000000000000/gleaner-jobs-dlq`;
});
afterAll(async () => sqs?.close());
beforeEach(() => {
  sqs.calls.length = 0;
  vi.spyOn(log, 'warn').mockImplementation(() => undefined);
});

const record = (id: string, body: unknown, receiveCount = 1): SQSRecord => ({
  messageId: id, receiptHandle: `rh-${id}`, body: typeof body === 'string' ? body : JSON.stringify(body),
  attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
  messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:gleaner-jobs', awsRegion: 'us-east-1',
});
const context = (remainingMs = 60_000) => ({ getRemainingTimeInMillis: () => remainingMs }) as Context;
const fire = (job: string) => ({ kind: 'job.fire', tenant_id: 't', job_id: job });

function jobsWorker(env: Record<string, string> = {}) {
  const failed: string[] = [];
  const deps = { config: loadConfig({ GLEANER_MODE: 'aws', GLEANER_QUEUE_JOBS_URL: queueUrl, GLEANER_DLQ_URL: dlqUrl, ...env }) } as unknown as Deps;
  const w = defineWorker('jobs', {
    'job.fire': {
      timeoutMs: 30_000,
      async run(m) {
        if (m.job_id.startsWith('flaky')) throw new Error('source timed out');
        if (m.job_id === 'poison') throw new NonRetryableError('job has no schedule');
      },
      onDeadLetter: async (m, _d, reason) => void failed.push(`${m.job_id}: ${reason}`),
    },
    'storage.sweep': { timeoutMs: 30_000, run: async () => undefined },
  }, { deps: async () => deps });
  return { ...w, failed };
}
const byAction = (a: string) => sqs.calls.filter((c: SqsCall) => c.action === a).map((c) => c.input);

describe('the SQS handler', () => {
  it('reports only retryable failures, delays each by ChangeMessageVisibility with exponential backoff, and dead-letters the rest explicitly', async () => {
    const errors = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const { handler, failed } = jobsWorker();
    const res = await handler({
      Records: [
        record('ok', fire('fine')),
        record('retry-1', fire('flaky-1'), 1),
        record('retry-2', fire('flaky-2'), 2),
        record('last', fire('flaky-3'), 3), // maxReceiveCount of the jobs worker
        record('poison', fire('poison')),
        record('not-json', 'definitely { not json'),
        record('wrong-shape', { kind: 'job.fire', tenant_id: 't' }),
      ],
    }, context());

    expect(res.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['retry-1', 'retry-2']);
    expect(byAction('ChangeMessageVisibility')).toEqual(expect.arrayContaining([
      { QueueUrl: queueUrl, ReceiptHandle: 'rh-retry-1', VisibilityTimeout: 10 },
      { QueueUrl: queueUrl, ReceiptHandle: 'rh-retry-2', VisibilityTimeout: 20 },
    ]));
    expect(byAction('ChangeMessageVisibility')).toHaveLength(2);

    const dead = byAction('SendMessage');
    expect(dead.every((m) => m.QueueUrl === dlqUrl)).toBe(true);
    const reason = (id: string) => (dead.find((m) => (m.MessageAttributes as Record<string, { StringValue: string }>).source_message_id.StringValue === id)?.MessageAttributes as Record<string, { StringValue: string }>)?.error.StringValue;
    expect(reason('last')).toBe('source timed out');
    expect(reason('poison')).toBe('job has no schedule');
    expect(reason('not-json')).toMatch(/^malformed message: the body is not JSON/);
    expect(reason('wrong-shape')).toMatch(/^malformed message: not a jobs message: job_id/);
    expect(dead.find((m) => m.MessageBody === 'definitely { not json')).toBeDefined(); // the body is kept as received
    expect(dead).toHaveLength(4);
    expect(failed.sort()).toEqual(['flaky-3: source timed out', 'poison: job has no schedule']);
    expect(errors.mock.calls.filter((c) => c[0] === 'malformed message dead-lettered')).toHaveLength(2);
  });

  it('never acknowledges a malformed record it could not dead-letter: it fails until SQS redrives it', async () => {
    vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const { handler } = jobsWorker({ GLEANER_DLQ_URL: '' });
    const res = await handler({ Records: [record('not-json', '<xml/>'), record('ok', fire('fine'))] }, context());
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'not-json' }]);
  });

  it('caps the backoff, and keeps each record within the time the invocation has left', async () => {
    const { handler } = jobsWorker({ GLEANER_RETRY_BASE_SECONDS: '600', GLEANER_RETRY_MAX_SECONDS: '900' });
    await handler({ Records: [record('r1', fire('flaky-x'), 1), record('r2', fire('flaky-y'), 2)] }, context());
    expect(byAction('ChangeMessageVisibility')).toEqual(expect.arrayContaining([
      { QueueUrl: queueUrl, ReceiptHandle: 'rh-r1', VisibilityTimeout: 600 },
      { QueueUrl: queueUrl, ReceiptHandle: 'rh-r2', VisibilityTimeout: 900 }, // 1200 capped
    ]));


    // With no time left the record is not started; it is retried in a later invocation.
    let started = false;
    const deps = { config: loadConfig({ GLEANER_MODE: 'aws', GLEANER_QUEUE_JOBS_URL: queueUrl }) } as unknown as Deps;
    const { handler: late } = defineWorker('jobs', {
      'job.fire': { timeoutMs: 30_000, run: async () => void (started = true) },
      'storage.sweep': { timeoutMs: 30_000, run: async () => undefined },
    }, { deps: async () => deps });
    const res = await late({ Records: [record('late', fire('any'))] }, context(0));
    expect(started).toBe(false);
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'late' }]);
  });
});
