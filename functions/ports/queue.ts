/** Work queues (SQS on AWS, in-process locally). Delivery is at-least-once: consumers are idempotent. */
export type QueueName = 'runs' | 'queries' | 'deliveries' | 'jobs';
export interface QueueMessage {
  kind: string;
  [k: string]: unknown;
}
export interface Queue {
  send(queue: QueueName, message: QueueMessage, opts?: { delaySeconds?: number }): Promise<void>;
}
/** What a consumer does with one message; throwing means "retry later" (then DLQ). */
export type MessageHandler = (message: QueueMessage, meta: { receiveCount: number; messageId: string }) => Promise<void>;
/** Called once a message has exhausted its retries (it has reached the dead-letter queue). */
export type DeadLetterHandler = (message: QueueMessage, error: string) => Promise<void>;
