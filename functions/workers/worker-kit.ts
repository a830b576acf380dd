import type { SQSEvent, SQSBatchResponse } from 'aws-lambda';
import * as z from 'zod';
import { deps, type Deps } from '../runtime.js';
import { NonRetryableError, isRetryable } from '../core/errors.js';
import { log } from '../core/log.js';
import { workers as workerDefs, type WorkerDef } from '../routes.js';
import type { QueueMessage } from '../ports/queue.js';

/** One kind of message a worker handles: its schema and time budget (crawlee's router habit). */
export interface Kind<S extends z.ZodType> {
  schema: S;
  timeoutMs: number;
  run(message: z.infer<S>, d: Deps, meta: { receiveCount: number; signal: AbortSignal }): Promise<void>;
  /** The message exhausted its retries: mark the record failed with this reason. */
  onDeadLetter?(message: z.infer<S>, d: Deps, error: string): Promise<void>;
}

export interface LocalWorker {
  handle(message: QueueMessage, meta: { receiveCount: number; messageId: string }): Promise<void>;
  onDeadLetter(message: QueueMessage, error: string): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const kind = <S extends z.ZodType>(k: Kind<S>): Kind<any> => k;

/**
 * A worker that dispatches by `kind`, validates each message, applies the kind's timeout and
 * classifies failures; exported both as an SQS handler (partial batch responses) and as the
 * local queue's consumer.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function defineWorker(id: WorkerDef['id'], kinds: Record<string, Kind<any>>) {
  const def = workerDefs.find((w) => w.id === id)!;

  const dispatch = async (message: QueueMessage, receiveCount: number) => {
    const k = kinds[message.kind];
    if (!k) throw new NonRetryableError(`Unknown message kind ${message.kind} for the ${id} worker`);
    const parsed = k.schema.safeParse(message);
    if (!parsed.success) throw new NonRetryableError(`Malformed ${message.kind} message: ${parsed.error.message}`);
    const d = await deps();
    const ac = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, rej) => {
      timer = setTimeout(() => {
        ac.abort();
        rej(new Error(`${message.kind} timed out after ${k.timeoutMs} ms`));
      }, k.timeoutMs);
    });
    try {
      await Promise.race([k.run(parsed.data, d, { receiveCount, signal: ac.signal }), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  const deadLetter = async (message: QueueMessage, error: string) => {
    const k = kinds[message.kind];
    const parsed = k?.schema.safeParse(message);
    if (k?.onDeadLetter && parsed?.success) await k.onDeadLetter(parsed.data, await deps(), error);
  };

  const worker: LocalWorker = {
    handle: (m, meta) => dispatch(m, meta.receiveCount),
    onDeadLetter: deadLetter,
  };

  const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      let message: QueueMessage;
      try {
        message = JSON.parse(record.body);
      } catch {
        log.error('dropping a message that is not JSON', { worker: id, messageId: record.messageId });
        continue;
      }
      const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? 1);
      try {
        await dispatch(message, receiveCount);
      } catch (err) {
        const reason = (err as Error)?.message ?? String(err);
        if (!isRetryable(err) || receiveCount >= def.maxReceiveCount) {
          // The record is marked failed now; a retryable one still goes to the DLQ for inspection.
          await deadLetter(message, reason).catch((e) => log.error('dead-letter handling failed', { err: e }));
          if (!isRetryable(err)) continue;
        }
        log.warn('message failed; will retry', { worker: id, kind: message.kind, receiveCount, reason });
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  };

  return { worker, handler };
}
