import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { deps, type Deps } from '../runtime.js';
import { NonRetryableError, isRetryable } from '../core/errors.js';
import { log } from '../core/log.js';
import { decodeMessage, type KindOf, type MessageOfKind, type QueueName } from '../core/queue-messages.js';
import { workers as workerDefs } from '../routes.js';
import { sqsReceiver } from '../adapters/aws/sqs-queue.js';
import type { QueueReceiver, ReceivedRecord } from '../ports/queue.js';

/** One kind of message a worker handles: its time budget and what to do (crawlee's router habit). */
export interface Kind<M> {
  timeoutMs: number;
  /** `deadline`: epoch ms by which the record must be done (its budget within the invocation). */
  run(message: M, d: Deps, meta: { receiveCount: number; signal: AbortSignal; deadline: number; released?: () => void }): Promise<void>;
  /** The message will not be retried (non-retryable, or out of receives): mark its record failed with this reason. */
  onDeadLetter?(message: M, d: Deps, error: string): Promise<void>;
}

/** A handler for every kind the queue's schema allows (a missing one is a compile error). */
export type Kinds<Q extends QueueName> = { [K in KindOf<Q>]: Kind<MessageOfKind<Q, K>> };

/** What the interpreter needs of the Lambda context: how long this invocation may still run. */
export type InvocationContext = Pick<Context, 'getRemainingTimeInMillis'>;

/** A worker as both runtimes run it: one batch in, a partial batch response out. */
export interface Worker<Q extends QueueName = QueueName> {
  queue: Q;
  /**
   * The interpreter: the SQS handler runs it with the SQS receiver, the LocalQueue with itself,
   * so retry, backoff and dead-letter semantics are written (and tested) once.
   */
  process(event: SQSEvent, context: InvocationContext, receiver: QueueReceiver): Promise<SQSBatchResponse>;
  /** Run one message now, outside any queue (tests, the console's "run now" paths): validate and dispatch. */
  handle(message: unknown, meta: { receiveCount: number; messageId: string }): Promise<void>;
  /** What happens to a message's record when the message is dead-lettered (tests). */
  onDeadLetter(message: unknown, error: string): Promise<void>;
}

export interface WorkerOptions {
  /** Receives after which a failing message is dead-lettered (defaults to the worker's row in routes.ts). */
  maxReceiveCount?: number;
  /** Backoff base and cap in seconds (default: config `retryBaseSeconds`/`retryMaxSeconds`). */
  retryBaseSeconds?: number;
  retryMaxSeconds?: number;
  /** Where dependencies come from (default: the runtime's composition root). */
  deps?: () => Promise<Deps>;
}

/**
 * Time kept back from each record's budget so the interpreter can still report the outcome
 * (change visibility, dead-letter) before Lambda ends the invocation.
 */
export const reserveMs = (remainingMs: number) => Math.min(10_000, Math.ceil(remainingMs * 0.1));

/** Exponential backoff: base * 2^(receiveCount - 1) seconds, at most `max`. */
export const backoffSeconds = (receiveCount: number, base: number, max: number) =>
  Math.min(max, base * 2 ** Math.max(0, receiveCount - 1));

/** Thrown for a record that should be tried again: the batch reports it as failed. */
class RetryLater extends Error {
  override name = 'RetryLater';
}

const message = (err: unknown) => (err as Error)?.message ?? String(err);

/**
 * A worker that decodes each record with its queue's schema, dispatches by `kind` with the kind's
 * time budget (never more than the invocation has left), and settles every record one way:
 * processed (acknowledged), retried after an exponential backoff (its visibility changed and
 * reported as a batch item failure), or dead-lettered with the reason (malformed, non-retryable,
 * or out of receives; its record marked failed first). Records of a batch run concurrently.
 * Exports `handler` (the Lambda entry point) and `worker` (what the local queue runs).
 */
export function defineWorker<Q extends QueueName>(queue: Q, kinds: Kinds<Q>, opts: WorkerOptions = {}) {
  const def = workerDefs.find((w) => w.id === queue);
  const maxReceiveCount = opts.maxReceiveCount ?? def?.maxReceiveCount ?? 3;
  const getDeps = opts.deps ?? deps;
  type Handler = Kind<MessageOfKind<Q, KindOf<Q>>>;
  const kindOf = (m: { kind: string }) => (kinds as unknown as Record<string, Handler>)[m.kind]!;

  const dispatch = async (m: MessageOfKind<Q, KindOf<Q>>, d: Deps, receiveCount: number, budgetMs: number, released?: () => void) => {
    const k = kindOf(m);
    const limit = Math.min(k.timeoutMs, budgetMs);
    if (limit <= 0) throw new Error(`no time left in this invocation to start ${m.kind}`);
    const ac = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, rej) => {
      timer = setTimeout(() => {
        ac.abort();
        rej(new Error(`${m.kind} timed out after ${limit} ms`));
      }, limit);
    });
    try {
      await Promise.race([k.run(m, d, { receiveCount, signal: ac.signal, deadline: Date.now() + limit, ...(released ? { released } : {}) }), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  const settle = async (record: SQSRecord, d: Deps, budgetMs: number, receiver: QueueReceiver) => {
    const rec: ReceivedRecord = {
      messageId: record.messageId,
      receiptHandle: record.receiptHandle,
      body: record.body,
      receiveCount: Math.max(1, Number(record.attributes?.ApproximateReceiveCount ?? 1) || 1),
    };
    const ctx = { worker: queue, messageId: rec.messageId, receiveCount: rec.receiveCount };
    const decoded = decodeMessage(queue, rec.body);
    if (!decoded.ok) {
      // Never acknowledged unseen: it goes to the DLQ for an operator, with the reason.
      log.error('malformed message dead-lettered', { ...ctx, reason: decoded.reason });
      await receiver.deadLetter(queue, rec, `malformed message: ${decoded.reason}`);
      return;
    }
    const m = decoded.message as MessageOfKind<Q, KindOf<Q>>;
    try {
      await dispatch(m, d, rec.receiveCount, budgetMs, receiver.released ? () => receiver.released!(queue, rec) : undefined);
    } catch (err) {
      const reason = message(err);
      if (!isRetryable(err) || rec.receiveCount >= maxReceiveCount) {
        log.warn('message dead-lettered', { ...ctx, kind: m.kind, reason, retryable: isRetryable(err) });
        // The record is marked failed now; the message itself still goes to the DLQ for inspection.
        await kindOf(m).onDeadLetter?.(m, d, reason).catch((e) => log.error('dead-letter handling failed', { ...ctx, err: e }));
        await receiver.deadLetter(queue, rec, reason);
        return;
      }
      const delay = backoffSeconds(rec.receiveCount, opts.retryBaseSeconds ?? d.config.retryBaseSeconds, opts.retryMaxSeconds ?? d.config.retryMaxSeconds);
      log.warn('message failed; will retry', { ...ctx, kind: m.kind, reason, delaySeconds: delay });
      // If the delay cannot be set the record still fails: it is retried after the queue's visibility timeout.
      await receiver.retryAfter(queue, rec, delay).catch((e) => log.error('could not set the retry delay', { ...ctx, err: e }));
      throw new RetryLater(reason);
    }
  };

  const worker: Worker<Q> = {
    queue,
    async process(event, context, receiver) {
      const d = await getDeps();
      const remaining = context.getRemainingTimeInMillis();
      const budgetMs = remaining - reserveMs(remaining);
      // A fresh processor per batch: one instance holds one batch's state, and the local queue
      // may run several batches of one worker at once.
      return processPartialResponse(event, (r: SQSRecord) => settle(r, d, budgetMs, receiver), new BatchProcessor(EventType.SQS), {
        throwOnFullBatchFailure: false,
      });
    },
    async handle(raw, meta) {
      const decoded = decodeMessage(queue, JSON.stringify(raw));
      if (!decoded.ok) throw new NonRetryableError(`Malformed ${queue} message: ${decoded.reason}`);
      const k = kindOf(decoded.message);
      await dispatch(decoded.message as MessageOfKind<Q, KindOf<Q>>, await getDeps(), meta.receiveCount, k.timeoutMs);
    },
    async onDeadLetter(raw, error) {
      const decoded = decodeMessage(queue, JSON.stringify(raw));
      if (decoded.ok) await kindOf(decoded.message).onDeadLetter?.(decoded.message as MessageOfKind<Q, KindOf<Q>>, await getDeps(), error);
    },
  };

  /** The Lambda entry point (SQS event source with ReportBatchItemFailures). */
  const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => worker.process(event, context, sqsReceiver(await getDeps()));

  return { worker, handler };
}
