import type { MessageFor, QueueName } from '../core/queue-messages.js';

export type { QueueName, MessageFor } from '../core/queue-messages.js';

/**
 * Work queues (SQS on AWS, in-process locally). Delivery is at-least-once: consumers are
 * idempotent. `send` is typed by queue (core/queue-messages.ts) and every implementation
 * validates the message against that queue's schema before it is queued (`encodeMessage`).
 */
export interface Queue {
  send<Q extends QueueName>(queue: Q, message: MessageFor<Q>, opts?: { delaySeconds?: number }): Promise<void>;
}

/** A record as a worker receives it (an SQS record, or its local equivalent). */
export interface ReceivedRecord {
  messageId: string;
  /** Names this receipt of the record, for changing its visibility. */
  receiptHandle: string;
  body: string;
  /** 1 on the first delivery. */
  receiveCount: number;
}

/**
 * The consumer side of a queue: what the worker interpreter does with a received record besides
 * acknowledging it (reporting it as processed) or leaving it (reporting it as failed).
 */
export interface QueueReceiver {
  /** Keep a record hidden for `seconds` from now (SQS ChangeMessageVisibility): its retry backoff. */
  retryAfter(queue: QueueName, record: ReceivedRecord, seconds: number): Promise<void>;
  /** Put a record on the queue's dead-letter queue with the reason; the interpreter then acknowledges it. */
  deadLetter(queue: QueueName, record: ReceivedRecord, reason: string): Promise<void>;
  /**
   * The record's work has no page left in flight: what remains only stores what it did (a crawl
   * slice's tail). The local queue then starts its next message in this one's place rather than
   * leaving the slot idle through the writes. Lambda has nothing like it (optional; SQS: absent).
   */
  released?(queue: QueueName, record: ReceivedRecord): void;
}
