import { randomUUID } from 'node:crypto';
import type { Table } from '../../ports/table.js';
import type { DeadLetterHandler, MessageHandler, Queue, QueueMessage, QueueName } from '../../ports/queue.js';
import { isRetryable } from '../../core/errors.js';
import { log } from '../../core/log.js';

interface Consumer {
  handler: MessageHandler;
  onDeadLetter: DeadLetterHandler;
  maxReceiveCount: number;
  concurrency: number;
  active: number;
}

/**
 * In-process queue with SQS semantics that matter here: at-least-once delivery, retries with
 * backoff, a dead-letter step after maxReceiveCount, and durability: every message lives in
 * the table until acknowledged, so unfinished work is delivered again after a restart.
 */
export class LocalQueue implements Queue {
  private consumers = new Map<QueueName, Consumer>();
  private timers = new Set<NodeJS.Timeout>();
  private ready = new Map<QueueName, string[]>();
  private inflight = 0;
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(private readonly table: Table) {}

  async send(queue: QueueName, message: QueueMessage, opts?: { delaySeconds?: number }): Promise<void> {
    const id = `${Date.now().toString(36).padStart(9, '0')}-${randomUUID()}`;
    const visibleAt = Date.now() + (opts?.delaySeconds ?? 0) * 1000;
    await this.table.put({ pk: `LQ#${queue}`, sk: id, body: message, receive_count: 0, visible_at: visibleAt });
    this.schedule(queue, id, visibleAt);
  }

  consume(queue: QueueName, handler: MessageHandler, opts: { onDeadLetter: DeadLetterHandler; maxReceiveCount: number; concurrency: number }) {
    this.consumers.set(queue, { handler, ...opts, active: 0 });
  }

  /** Load messages left by a previous process (crash or restart) and deliver them again. */
  async recover(): Promise<number> {
    let n = 0;
    for (const queue of this.consumers.keys()) {
      let cursor: string | undefined;
      do {
        const page = await this.table.query({ pk: `LQ#${queue}`, cursor, limit: 200 });
        for (const i of page.items) {
          this.schedule(queue, i.sk, Number(i.visible_at ?? 0));
          n++;
        }
        cursor = page.cursor ?? undefined;
      } while (cursor);
    }
    return n;
  }

  private schedule(queue: QueueName, id: string, visibleAt: number) {
    if (this.stopped) return;
    this.inflight++;
    const t = setTimeout(() => {
      this.timers.delete(t);
      const list = this.ready.get(queue) ?? [];
      list.push(id);
      this.ready.set(queue, list);
      this.pump(queue);
    }, Math.max(0, visibleAt - Date.now()));
    this.timers.add(t);
  }

  private pump(queue: QueueName) {
    const c = this.consumers.get(queue);
    const list = this.ready.get(queue);
    if (!c || !list) return;
    while (c.active < c.concurrency && list.length && !this.stopped) {
      const id = list.shift()!;
      c.active++;
      void this.deliver(queue, id, c).finally(() => {
        c.active--;
        this.settle();
        this.pump(queue);
      });
    }
  }

  private async deliver(queue: QueueName, id: string, c: Consumer) {
    const key = { pk: `LQ#${queue}`, sk: id };
    let item;
    try {
      item = await this.table.update(key, { add: { receive_count: 1 }, condition: { expression: 'attribute_exists(pk)' } });
    } catch {
      return; // already acknowledged
    }
    const receiveCount = Number(item.receive_count);
    const message = item.body as QueueMessage;
    try {
      await c.handler(message, { receiveCount, messageId: id });
      await this.table.delete(key);
    } catch (err) {
      const reason = (err as Error)?.message ?? String(err);
      if (!isRetryable(err) || receiveCount >= c.maxReceiveCount) {
        log.warn('message dead-lettered', { queue, id, receiveCount, reason });
        await this.table.put({ pk: `LDLQ#${queue}`, sk: id, body: message, error: reason, receive_count: receiveCount });
        await this.table.delete(key);
        await c.onDeadLetter(message, reason).catch((e) => log.error('dead-letter handler failed', { queue, id, err: e }));
      } else {
        const backoff = Math.min(30_000, 500 * 2 ** (receiveCount - 1));
        const visibleAt = Date.now() + backoff;
        await this.table.update(key, { set: { visible_at: visibleAt, last_error: reason } }).catch(() => undefined);
        this.schedule(queue, id, visibleAt);
      }
    }
  }

  private settle() {
    this.inflight--;
    if (this.inflight === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Resolves when nothing is queued, delayed or running (tests and graceful shutdown). */
  idle(): Promise<void> {
    return this.inflight === 0 ? Promise.resolve() : new Promise((r) => this.idleWaiters.push(r));
  }

  stop() {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
