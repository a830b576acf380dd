import { randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Table } from '../../ports/table.js';
import type { MessageFor, Queue, QueueName, QueueReceiver, ReceivedRecord } from '../../ports/queue.js';
import { encodeMessage } from '../../core/queue-messages.js';
import { log } from '../../core/log.js';
import { DEFAULT_TENANT_CRAWL_PAGES } from '../../config.js';

/** What the local queue runs: the worker interpreter, exactly as the SQS handler runs it. */
export interface BatchWorker {
  process(event: SQSEvent, context: Pick<Context, 'getRemainingTimeInMillis'>, receiver: QueueReceiver): Promise<SQSBatchResponse>;
}

export interface ConsumeOptions {
  /** Receives before the queue itself moves a message to the DLQ (SQS redrive). */
  maxReceiveCount: number;
  /** Records per invocation (the event source's batch size). */
  batchSize: number;
  /** Invocations at once (the event source's MaximumConcurrency): a burst queues behind these. */
  concurrency: number;
  /** The function timeout; the interpreter's per-record budget is taken from what remains of it. */
  timeoutSeconds: number;
  /** How long a failed record stays hidden when the worker did not set a retry delay. */
  visibilityTimeoutSeconds?: number;
  /**
   * Crawl pages one tenant may have in flight at once on this queue (a `crawl.slice` message weighs
   * its `in_flight`, the crawl's concurrency, or its URL count when smaller or not given); further
   * slices of that tenant wait while other tenants' messages go ahead, as TenantShare would send
   * them back. Default {@link DEFAULT_TENANT_CRAWL_PAGES}.
   */
  tenantCrawlPages?: number;
  /**
   * Runs the batches made only of crawl slices instead of `worker` (the local server's crawl
   * thread, local/crawl-thread.ts), so a crawl's pages do not hold up this thread's other work.
   */
  sliceWorker?: BatchWorker;
}

/** A visible message waiting for delivery: its tenant (for fairness) and crawl pages (for the cap). */
interface Ready {
  id: string;
  tenant: string;
  pages: number;
}

/** Tenant and crawl weight of a message body (queue messages carry `tenant_id`; anything else shares ''). */
function routing(body: unknown): { tenant: string; pages: number } {
  try {
    const m = (typeof body === 'string' ? JSON.parse(body) : body) as { tenant_id?: unknown; kind?: unknown; urls?: unknown; in_flight?: unknown };
    const tenant = typeof m?.tenant_id === 'string' ? m.tenant_id : '';
    const urls = m?.kind === 'crawl.slice' && Array.isArray(m.urls) ? m.urls.length : 0;
    const pages = typeof m.in_flight === 'number' && m.in_flight > 0 ? Math.min(urls, m.in_flight) : urls;
    return { tenant, pages };
  } catch {
    return { tenant: '', pages: 0 };
  }
}

interface Consumer extends ConsumeOptions {
  worker: BatchWorker;
  /** Invocations holding a slot (counted against `concurrency`): running ones not yet released. */
  active: number;
  /** Invocations running, released or not (shutdown waits for these). */
  running: number;
  /** Most invocations ever running at once, and most visible messages ever waiting for one. */
  peakActive: number;
  peakWaiting: number;
  /** Invocations working only crawl slices, and whether the express lane (see `pump`) is in use. */
  sliceActive: number;
  expressActive: boolean;
  /** Crawl pages in flight per tenant, and the tenant served last (round-robin). */
  crawlPages: Map<string, number>;
  lastTenant: string | undefined;
}

/** An invocation in progress: what it holds of its consumer until it ends or is released. */
interface Invocation {
  c: Consumer;
  batch: Ready[];
  slicesOnly: boolean;
  express: boolean;
  /** Records not yet released (see {@link LocalQueue.released}); the slot is freed at 0. */
  unreleased: number;
  freed: boolean;
}

/** How a queue's consumer has been loaded (the local counterpart of the SQS and Lambda metrics). */
export interface ConsumerStats {
  active: number;
  waiting: number;
  peakActive: number;
  peakWaiting: number;
}

const pk = (queue: QueueName) => `LQ#${queue}`;

// Message ids sort in the order this process sent them: the send time, then a counter within the
// millisecond (two sends in one millisecond kept their order only by chance of their random part).
let lastMs = 0;
let inMs = 0;
function messageId(): string {
  const now = Date.now();
  inMs = now === lastMs ? inMs + 1 : 0;
  lastMs = now;
  return `${now.toString(36).padStart(9, '0')}-${inMs.toString(36).padStart(4, '0')}-${randomUUID()}`;
}

/**
 * In-process queue with the SQS semantics that matter here, driving the same worker interpreter
 * as Lambda: batches of records go to `worker.process` with this queue as the receiver, records
 * reported as processed are deleted, failed ones come back when their visibility (the retry
 * delay the interpreter set) ends, and dead ones land in `LDLQ#<queue>`. At-least-once and
 * durable: every message lives in the table until acknowledged, so unfinished work is delivered
 * again after a restart. At most `concurrency` batches of a queue run at once, plus one for a
 * message that is not a crawl slice while every batch running is crawl slices (see `pump`).
 */
export class LocalQueue implements Queue, QueueReceiver {
  private consumers = new Map<QueueName, Consumer>();
  private timers = new Set<NodeJS.Timeout>();
  private ready = new Map<QueueName, Ready[]>();
  /** Visibility set by `retryAfter` for a record of the batch in progress. */
  private retryAt = new Map<string, number>();
  private pumping = new Set<QueueName>();
  private inflight = 0;
  private idleWaiters: Array<() => void> = [];
  /** Who waits for no invocation to be running (shutdown). */
  private stillWaiters: Array<() => void> = [];
  private stopped = false;
  /** Invocations in progress, by the message ids of their records. */
  private invocations = new Map<string, Invocation>();

  constructor(private readonly table: Table) {}

  async send<Q extends QueueName>(queue: Q, message: MessageFor<Q>, opts?: { delaySeconds?: number }): Promise<void> {
    await this.sendRaw(queue, encodeMessage(queue, message), opts);
  }

  /**
   * Queue a body as it is, unchecked: what any other producer could put on an SQS queue (an
   * EventBridge schedule's input, a message sent by hand). The interpreter must cope with it.
   */
  async sendRaw(queue: QueueName, body: string, opts?: { delaySeconds?: number }): Promise<void> {
    const id = messageId();
    const visibleAt = Date.now() + (opts?.delaySeconds ?? 0) * 1000;
    await this.table.put({ pk: pk(queue), sk: id, body, receive_count: 0, visible_at: visibleAt });
    this.schedule(queue, id, visibleAt, routing(body));
  }

  consume(queue: QueueName, worker: BatchWorker, opts: ConsumeOptions) {
    this.consumers.set(queue, { worker, ...opts, active: 0, running: 0, sliceActive: 0, expressActive: false, peakActive: 0, peakWaiting: 0, crawlPages: new Map(), lastTenant: undefined });
  }

  stats(queue: QueueName): ConsumerStats {
    const c = this.consumers.get(queue);
    return { active: c?.active ?? 0, waiting: this.ready.get(queue)?.length ?? 0, peakActive: c?.peakActive ?? 0, peakWaiting: c?.peakWaiting ?? 0 };
  }

  /** Messages waiting or in progress on a queue (the local ApproximateNumberOfMessages). */
  async depth(queue: QueueName): Promise<number> {
    return (await this.table.query({ pk: pk(queue) })).items.length;
  }

  /** Load messages left by a previous process (crash or restart) and deliver them again. */
  async recover(): Promise<number> {
    let n = 0;
    for (const queue of this.consumers.keys()) {
      let cursor: string | undefined;
      do {
        const page = await this.table.query({ pk: pk(queue), cursor, limit: 200 });
        for (const i of page.items) {
          this.schedule(queue, i.sk, Number(i.visible_at ?? 0), routing(i.body));
          n++;
        }
        cursor = page.cursor ?? undefined;
      } while (cursor);
    }
    return n;
  }

  // --- QueueReceiver: called by the interpreter while a batch is in progress -----------------

  async retryAfter(queue: QueueName, record: ReceivedRecord, seconds: number): Promise<void> {
    const at = Date.now() + seconds * 1000;
    await this.table.update({ pk: pk(queue), sk: record.receiptHandle }, { set: { visible_at: at } });
    this.retryAt.set(record.receiptHandle, at);
  }

  async deadLetter(queue: QueueName, record: ReceivedRecord, reason: string): Promise<void> {
    await this.table.put({ pk: `LDLQ#${queue}`, sk: record.messageId, body: record.body, error: reason, receive_count: record.receiveCount });
  }

  /**
   * A crawl slice's record has no page left in flight (its tail only writes what it did): once
   * every record of an invocation made only of crawl slices is released, its slot and its
   * tenant's crawl pages are freed and the next message starts while the tail finishes. The
   * pages in flight stay within `concurrency` slices' worth; the invocation itself still counts
   * for shutdown (`settled`) and its records are acknowledged when it ends, as before.
   */
  released(queue: QueueName, record: ReceivedRecord): void {
    const inv = this.invocations.get(record.messageId);
    if (!inv || inv.freed || !inv.slicesOnly || inv.c !== this.consumers.get(queue)) return;
    if (--inv.unreleased > 0) return;
    this.free(inv);
    this.pump(queue);
  }

  /** Give an invocation's slot and crawl pages back to its consumer (once). */
  private free(inv: Invocation): void {
    if (inv.freed) return;
    inv.freed = true;
    const c = inv.c;
    c.active--;
    if (inv.slicesOnly) c.sliceActive--;
    if (inv.express) c.expressActive = false;
    for (const b of inv.batch) if (b.pages) c.crawlPages.set(b.tenant, (c.crawlPages.get(b.tenant) ?? 0) - b.pages);
  }

  // --- delivery ---------------------------------------------------------------------------------

  private schedule(queue: QueueName, id: string, visibleAt: number, r: { tenant: string; pages: number }) {
    if (this.stopped) return;
    this.inflight++;
    const makeReady = () => {
      const list = this.ready.get(queue) ?? [];
      list.push({ id, ...r });
      this.ready.set(queue, list);
      this.requestPump(queue);
    };
    // A message visible now is ready now, not after a timer: messages scheduled in one go (a
    // recovery, a burst) then meet in one pump and form one batch, however late a loaded machine
    // runs the timers (a 1 ms timer each could fire in two groups and split the batch).
    const wait = visibleAt - Date.now();
    if (wait <= 0) return makeReady();
    const t = setTimeout(() => {
      this.timers.delete(t);
      makeReady();
    }, wait);
    this.timers.add(t);
  }

  /**
   * Pump once the timers due now have all fired, so messages that became visible together are
   * received together (one batch of up to batchSize, like an SQS poll).
   */
  private requestPump(queue: QueueName) {
    if (this.pumping.has(queue)) return;
    this.pumping.add(queue);
    setImmediate(() => {
      this.pumping.delete(queue);
      this.pump(queue);
    });
  }

  private pump(queue: QueueName) {
    const c = this.consumers.get(queue);
    const list = this.ready.get(queue);
    if (!c || !list) return;
    while (list.length && !this.stopped) {
      let batch: Ready[];
      let express = false;
      if (c.active < c.concurrency) batch = this.takeFair(c, list);
      else if (!c.expressActive && c.sliceActive === c.active) {
        // Every invocation is working crawl slices: another message (a run's start, a runbook
        // task) gets one invocation of its own beyond the bound rather than waiting for a slice to
        // end, as on AWS, where each message gets a Lambda of its own and a crawl's share is capped
        // (TenantShare): a big crawl cannot make another tenant's one-page run wait for its slices.
        const i = list.findIndex((r) => !r.pages);
        if (i < 0) break;
        batch = list.splice(i, 1);
        express = true;
      } else break;
      if (!batch.length) break; // only capped tenants' crawl slices wait: a finishing batch pumps again
      const ids = batch.map((b) => b.id);
      const slicesOnly = batch.every((b) => b.pages > 0);
      const inv: Invocation = { c, batch, slicesOnly, express, unreleased: ids.length, freed: false };
      for (const id of ids) this.invocations.set(id, inv);
      c.active++;
      c.running++;
      if (slicesOnly) c.sliceActive++;
      if (express) c.expressActive = true;
      c.peakActive = Math.max(c.peakActive, c.active);
      for (const b of batch) if (b.pages) c.crawlPages.set(b.tenant, (c.crawlPages.get(b.tenant) ?? 0) + b.pages);
      void this.invoke(queue, ids, c, slicesOnly && c.sliceWorker ? c.sliceWorker : c.worker)
        .catch((err) => log.error('local queue delivery failed', { queue, err }))
        .finally(() => {
          for (const id of ids) if (this.invocations.get(id) === inv) this.invocations.delete(id);
          this.free(inv);
          c.running--;
          for (let i = 0; i < ids.length; i++) this.settle();
          if (!this.invoking()) for (const w of this.stillWaiters.splice(0)) w();
          this.pump(queue);
        });
    }
    c.peakWaiting = Math.max(c.peakWaiting, list.length);
  }

  /**
   * Up to batchSize visible messages, one tenant at a time in turn (round-robin from the tenant
   * after the one served last, oldest message first within a tenant), so a tenant with thousands
   * of queued crawl slices does not hold back another tenant's single run. A tenant's crawl slice
   * is passed over while that tenant has its cap of crawl pages in flight (a tenant with none in
   * flight may always start one slice, whatever its size).
   */
  private takeFair(c: Consumer, list: Ready[]): Ready[] {
    const cap = c.tenantCrawlPages ?? DEFAULT_TENANT_CRAWL_PAGES;
    const byTenant = new Map<string, number[]>();
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!.tenant;
      const l = byTenant.get(t);
      if (l) l.push(i);
      else byTenant.set(t, [i]);
    }
    const tenants = [...byTenant.keys()].sort();
    const start = c.lastTenant === undefined ? 0 : tenants.findIndex((t) => t > c.lastTenant!);
    const order = start <= 0 ? tenants : [...tenants.slice(start), ...tenants.slice(0, start)];
    const taken: number[] = [];
    const planned = new Map<string, number>();
    const size = Math.max(1, c.batchSize);
    for (let progress = true; taken.length < size && progress; ) {
      progress = false;
      for (const t of order) {
        if (taken.length >= size) break;
        const idxs = byTenant.get(t)!;
        while (idxs.length) {
          const r = list[idxs[0]!]!;
          const inFlight = (c.crawlPages.get(t) ?? 0) + (planned.get(t) ?? 0);
          if (r.pages && inFlight > 0 && inFlight + r.pages > cap) {
            // This tenant's oldest message is a slice over its cap; its other messages (runs, a
            // delivery) may still go, crawl slices behind it are over the cap too.
            const other = idxs.findIndex((i) => !list[i]!.pages);
            if (other < 0) {
              idxs.length = 0;
              break;
            }
            taken.push(idxs.splice(other, 1)[0]!);
          } else {
            taken.push(idxs.shift()!);
            if (r.pages) planned.set(t, (planned.get(t) ?? 0) + r.pages);
          }
          c.lastTenant = t;
          progress = true;
          break;
        }
      }
    }
    const out = taken.map((i) => list[i]!);
    const drop = new Set(taken);
    const rest = list.filter((_, i) => !drop.has(i));
    list.length = 0;
    list.push(...rest);
    return out;
  }

  /** One "Lambda invocation": receive the records, run the interpreter, apply its batch response. */
  private async invoke(queue: QueueName, ids: string[], c: Consumer, worker: BatchWorker) {
    const records: SQSRecord[] = [];
    for (const id of ids) {
      const key = { pk: pk(queue), sk: id };
      let item;
      try {
        item = await this.table.update(key, { add: { receive_count: 1 }, condition: { expression: 'attribute_exists(pk)' } });
      } catch {
        continue; // already acknowledged
      }
      const receiveCount = Number(item.receive_count);
      // Messages before typed queues were stored as objects.
      const body = typeof item.body === 'string' ? item.body : JSON.stringify(item.body);
      if (receiveCount > c.maxReceiveCount) {
        // SQS redrive: a message received too often (a worker that keeps crashing on it) moves to the DLQ unseen.
        log.warn('message moved to the dead-letter queue after too many receives', { queue, id, receiveCount });
        await this.deadLetter(queue, { messageId: id, receiptHandle: id, body, receiveCount }, `received ${receiveCount - 1} times without being processed`);
        await this.table.delete(key);
        continue;
      }
      records.push(sqsRecord(queue, id, body, receiveCount));
    }
    if (!records.length) return;

    const deadline = Date.now() + c.timeoutSeconds * 1000;
    const context = { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
    let failed: Set<string>;
    try {
      const res = await worker.process({ Records: records }, context, this);
      failed = new Set(res.batchItemFailures.map((f) => f.itemIdentifier));
    } catch (err) {
      log.error('worker invocation failed; the whole batch will be retried', { queue, err });
      failed = new Set(records.map((r) => r.messageId));
    }
    for (const r of records) {
      const key = { pk: pk(queue), sk: r.messageId };
      const retryAt = this.retryAt.get(r.messageId);
      this.retryAt.delete(r.messageId);
      if (!failed.has(r.messageId)) {
        await this.table.delete(key);
        continue;
      }
      const at = retryAt ?? Date.now() + (c.visibilityTimeoutSeconds ?? c.timeoutSeconds) * 1000;
      if (retryAt === undefined) await this.table.update(key, { set: { visible_at: at } }).catch(() => undefined);
      this.schedule(queue, r.messageId, at, routing(r.body));
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

  /**
   * Resolves when no invocation is running (graceful shutdown, after `stop`): messages waiting or
   * delayed stay in the table for the next start and are not waited for.
   */
  settled(): Promise<void> {
    return this.invoking() ? new Promise((r) => this.stillWaiters.push(r)) : Promise.resolve();
  }

  /** Invocations running now, over every queue. */
  private invoking(): number {
    let n = 0;
    for (const c of this.consumers.values()) n += c.running;
    return n;
  }

  stop() {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** The SQS event record Lambda would receive for a local message. */
function sqsRecord(queue: QueueName, id: string, body: string, receiveCount: number): SQSRecord {
  const now = String(Date.now());
  return {
    messageId: id,
    receiptHandle: id,
    body,
    attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: now, SenderId: 'local', ApproximateFirstReceiveTimestamp: now },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:gleaner-${queue}`,
    awsRegion: 'local',
  };
}
