import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Config } from '../config.js';
import type { QueueName, QueueReceiver, ReceivedRecord } from '../ports/queue.js';
import type { BatchWorker, LocalQueue } from '../adapters/local/local-queue.js';
import { onForegroundChange } from '../core/limits/foreground.js';
import { log } from '../core/log.js';

/** Messages between the service's main thread and its crawl thread (crawl-thread-main.ts). */
export type ToThread =
  | { t: 'batch'; id: number; event: SQSEvent; remainingMs: number }
  | { t: 'reply'; id: number; error?: string }
  | { t: 'fg'; id: string; mark: { tenant: string; until: number } }
  | { t: 'shutdown' }
  | { t: 'close' };
/** What the thread asks of the main thread's queue: a send (an encoded body), or a record's retry or dead letter. */
export type ThreadCall =
  | { op: 'send'; batch?: undefined; args: [QueueName, string, { delaySeconds?: number } | undefined] }
  | { op: 'retryAfter'; batch: number; args: [QueueName, ReceivedRecord, number] }
  | { op: 'deadLetter'; batch: number; args: [QueueName, ReceivedRecord, string] }
  | { op: 'released'; batch: number; args: [QueueName, ReceivedRecord] };
export type FromThread =
  | { t: 'ready' }
  | { t: 'done'; id: number; response?: SQSBatchResponse; error?: string }
  | ({ t: 'call'; id: number } & ThreadCall);

/** A batch sent to the thread, until it answers. */
interface Batch {
  id: number;
  event: SQSEvent;
  /** Epoch ms: the invocation's deadline, kept when the batch runs again on a new thread. */
  deadline: number;
  receiver: QueueReceiver;
  resolve: (r: SQSBatchResponse) => void;
  reject: (e: Error) => void;
  tries: number;
}

/** What the thread needs to reach the stores the main thread uses. */
export interface CrawlThreadData {
  config: Config;
  dynamoEndpoint: string;
  s3Endpoint: string;
}

const MAIN = new URL(`./crawl-thread-main${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
/**
 * The thread's entry: the TypeScript source through tsx's loader (npm start and the tests run the
 * sources; a worker does not inherit a loader registered in the main thread), or a built .js as it is.
 */
function entry(main: URL): [string | URL, { eval?: boolean }] {
  if (!main.pathname.endsWith('.ts')) return [main, {}];
  // Test hook (test/support/global-setup.ts): the thread's sources built once for the test run
  // (packages left to node_modules, as through tsx); a thread then loads in less than half the CPU
  // of tsx's transforms. Only for this module's own entry, never one a caller passed.
  const built = process.env.GLEANER_TEST_CRAWL_THREAD;
  if (main.href === MAIN.href && built && existsSync(built)) return [pathToFileURL(built), {}];
  // tsx's ESM entry (its CommonJS one cannot register from an eval'd script).
  const tsx = import.meta.resolve?.('tsx/esm/api') ?? pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  return [`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(main.href)}); });`, { eval: true }];
}

/** How long a new thread may take to load before it is given up on. */
const READY_MS = 30_000;

/** Seconds before a batch that no thread could run is delivered again. */
const RETRY_SECONDS = 3;

/** The thread's own V8 heap bound: past it the thread dies, its slices are retried, and a new thread starts. */
const THREAD_HEAP_MB = 512;

/**
 * How long the thread stays up with no batch to run before it is ended (issue 31, memory at rest:
 * a loaded thread holds about 110 MB of the process's RSS). The next crawl slice starts a new one
 * (about a second to load, once per crawl that comes after an idle minute).
 */
export const CRAWL_THREAD_IDLE_MS = 60_000;

/**
 * The local server's crawl slices on a worker thread of their own (issue 21, fairness end to end).
 *
 * On AWS each message gets a Lambda of its own, so a crawl cannot take CPU from another tenant's
 * one-page run. Locally one process serves the API and every worker; a full-speed crawl kept its
 * event loop busy, and every step of another tenant's request or run waited behind the crawl's
 * callbacks. Here the crawl's pages are fetched, parsed and written on another thread, as another
 * Lambda would, while the main thread stays free for the API and the other queues' work.
 *
 * The thread runs the same worker interpreter on the same stores (over their endpoints); what it
 * sends to a queue, and its records' retries and dead letters, go back to the main thread's
 * LocalQueue, so message durability and delivery stay in one place. A thread that dies (a crash,
 * its heap bound) is replaced, and its batches run again on the new one; one that ends a second
 * thread fails, and the queue delivers it again a few seconds later (towards its dead-letter
 * queue, should it keep doing so). Should no
 * thread start at all, the slices run on the main thread as before. Started on the first crawl
 * slice (or by {@link CrawlThread.warm}), and ended once it has had no batch for `idleMs`
 * (CRAWL_THREAD_IDLE_MS): the service at rest carries no crawl thread.
 */
export class CrawlThread implements BatchWorker {
  private worker: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Batch>();
  private unfollow: (() => void) | undefined;
  private closed = false;
  /** The thread could not start at all: slices run on the main thread, as without it. */
  private unavailable = false;
  /** Ends an idle thread (see CRAWL_THREAD_IDLE_MS); armed whenever the last batch in progress ends. */
  private idleTimer: NodeJS.Timeout | undefined;
  /** Threads started, batches run on them, and threads ended for being idle (tests, logs). */
  readonly stats = { starts: 0, batches: 0, retired: 0 };

  /**
   * `inline`: the worker the main thread runs its other batches with (used should no thread
   * start). `main`: the thread's entry module, crawl-thread-main by default.
   */
  constructor(
    private readonly data: CrawlThreadData,
    private readonly queue: LocalQueue,
    private readonly inline: BatchWorker,
    private readonly main: URL = MAIN,
    private readonly queueName: QueueName = 'runs',
    private readonly idleMs: number = CRAWL_THREAD_IDLE_MS,
  ) {}

  /** Whether a thread is up (or starting) now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** No batch in progress: the thread is ended after `idleMs` unless one arrives first. */
  private armIdle() {
    this.disarmIdle();
    if (this.closed || this.pending.size || !this.worker) return;
    this.idleTimer = setTimeout(() => void this.retire(), this.idleMs);
    this.idleTimer.unref();
  }

  private disarmIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /**
   * Ends an idle thread the way close() does (it flushes its audit records and closes its
   * connections and browsers), without closing this CrawlThread: the thread is detached first, so
   * a batch that arrives meanwhile starts a new one rather than going to the one ending.
   */
  private async retire() {
    this.idleTimer = undefined;
    const w = this.worker;
    if (!w || this.pending.size || this.closed) return;
    this.worker = undefined;
    this.ready = undefined;
    this.unfollow?.();
    this.unfollow = undefined;
    this.stats.retired++;
    log.info('the crawl thread has been idle; it ends (the next crawl slice starts a new one)', { idle_ms: this.idleMs });
    const exited = new Promise<void>((r) => w.once('exit', () => r()));
    w.postMessage({ t: 'close' } satisfies ToThread);
    const timer = setTimeout(() => void w.terminate(), 15_000);
    timer.unref();
    await exited;
    clearTimeout(timer);
  }

  async process(event: SQSEvent, context: Pick<Context, 'getRemainingTimeInMillis'>, receiver: QueueReceiver): Promise<SQSBatchResponse> {
    if (this.closed) throw new Error('The crawl thread is closed');
    if (!this.unavailable) {
      try {
        await this.start();
      } catch (err) {
        log.error('the crawl thread could not start; crawl slices run on the main thread', { err });
        this.unavailable = true;
      }
    }
    if (this.unavailable) return this.inline.process(event, context, receiver);
    this.disarmIdle();
    const done = new Promise<SQSBatchResponse>((resolve, reject) => {
      const b: Batch = { id: this.nextId++, event, deadline: Date.now() + context.getRemainingTimeInMillis(), receiver, resolve, reject, tries: 0 };
      this.pending.set(b.id, b);
      void this.post(b);
    });
    // The last batch in progress ended (answered or failed): the idle clock starts.
    done.then(() => this.armIdle(), () => this.armIdle());
    return done;
  }

  /** Start the thread now rather than on the first slice (npm start: a crawl does not wait for it). */
  warm(): void {
    if (!this.closed && !this.unavailable) this.start().then(() => this.armIdle(), () => undefined);
  }

  /** Stop the slices in progress (they hand their work back, as on the main thread's shutdown). */
  shutdown(): void {
    this.worker?.postMessage({ t: 'shutdown' } satisfies ToThread);
  }

  /** End the thread at once, as a crash would (tests): its batches run again on a new one. */
  async kill(): Promise<void> {
    await this.worker?.terminate();
  }

  /** Let the thread flush its audit events and close its connections and browsers, then end it (bounded). */
  async close(): Promise<void> {
    this.closed = true;
    this.disarmIdle();
    this.unfollow?.();
    const w = this.worker;
    if (!w) return;
    const exited = new Promise<void>((r) => w.once('exit', () => r()));
    w.postMessage({ t: 'close' } satisfies ToThread);
    const timer = setTimeout(() => void w.terminate(), 15_000);
    await exited;
    clearTimeout(timer);
  }

  /** Send a batch to the thread (a new one if the last has died). */
  private async post(b: Batch) {
    b.tries++;
    try {
      const w = await this.start();
      this.stats.batches++;
      w.postMessage({ t: 'batch', id: b.id, event: b.event, remainingMs: Math.max(0, b.deadline - Date.now()) } satisfies ToThread);
    } catch (err) {
      await this.fail(b, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private start(): Promise<Worker> {
    if (this.ready) return this.ready;
    const [main, how] = entry(this.main);
    const w = new Worker(main, { ...how, workerData: this.data satisfies CrawlThreadData, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    this.stats.starts++;
    this.worker = w;
    this.ready = new Promise<Worker>((resolve, reject) => {
      // A thread that never says it is ready is ended: its batches then fail and come back shortly,
      // instead of holding their invocations (and so the crawl) for good.
      const stuck = setTimeout(() => void w.terminate(), READY_MS);
      stuck.unref();
      w.once('message', () => clearTimeout(stuck));
      w.once('exit', () => clearTimeout(stuck));
      w.once('error', reject);
      w.once('exit', (code) => reject(new Error(`The crawl thread exited (${code}) before it was ready`)));
      w.on('message', (m: FromThread) => {
        if (m.t === 'ready') resolve(w);
        else this.onMessage(w, m);
      });
    });
    this.ready.catch(() => undefined);
    w.on('error', (err) => log.error('the crawl thread failed', { err }));
    w.once('exit', (code) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.ready = undefined;
      this.unfollow?.();
      this.unfollow = undefined;
      // Its batches run again on a new thread (their slices are safe to run twice, crawl-slice.ts);
      // a batch that has now ended two threads fails, and the queue retries it as any failed one.
      for (const b of [...this.pending.values()]) {
        if (b.tries < 2 && !this.closed) {
          log.warn('the crawl thread ended during a batch; it runs again on a new thread', { code });
          void this.post(b);
        } else void this.fail(b, new Error(`The crawl thread exited (${code}) during the batch`));
      }
    });
    // Another tenant's interactive work marked here holds the crawl back there (core/limits/foreground.ts).
    this.unfollow = onForegroundChange((id, mark) => w.postMessage({ t: 'fg', id, mark } satisfies ToThread));
    return this.ready;
  }

  /**
   * The batch could not be run on a thread: its records come back in a few seconds rather than
   * after the queue's visibility timeout (15 minutes for the runs queue), and a record that keeps
   * failing this way still reaches the dead-letter queue after its receives.
   */
  private async fail(b: Batch, err: Error) {
    this.pending.delete(b.id);
    log.warn('a batch of crawl slices could not run on the crawl thread; it is retried shortly', { err });
    for (const r of b.event.Records) {
      const record = { messageId: r.messageId, receiptHandle: r.receiptHandle, body: r.body, receiveCount: Number(r.attributes.ApproximateReceiveCount) };
      await b.receiver.retryAfter(this.queueName, record, RETRY_SECONDS).catch(() => undefined);
    }
    b.reject(err);
  }

  private onMessage(w: Worker, m: FromThread) {
    if (m.t === 'done') {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (!p) return;
      if (m.response) p.resolve(m.response);
      else p.reject(new Error(m.error ?? 'The crawl thread failed the batch'));
      return;
    }
    if (m.t !== 'call') return;
    const receiver = m.batch !== undefined ? this.pending.get(m.batch)?.receiver : undefined;
    const done =
      m.op === 'send'
        ? this.queue.sendRaw(...m.args)
        : !receiver
          ? Promise.reject(new Error('The batch is no longer in progress'))
          : m.op === 'retryAfter'
            ? receiver.retryAfter(...m.args)
            : m.op === 'released'
              ? Promise.resolve(receiver.released?.(...m.args))
              : receiver.deadLetter(...m.args);
    done.then(
      () => w.postMessage({ t: 'reply', id: m.id } satisfies ToThread),
      (err: unknown) => w.postMessage({ t: 'reply', id: m.id, error: err instanceof Error ? err.message : String(err) } satisfies ToThread),
    );
  }
}
