import { parentPort, workerData } from 'node:worker_threads';
import type { SQSEvent } from 'aws-lambda';
import { setConfig } from '../config.js';
import { setDeps } from '../runtime.js';
import { log, setLogLevel } from '../core/log.js';
import { encodeMessage } from '../core/queue-messages.js';
import { mirrorForeground } from '../core/limits/foreground.js';
import { configureBudgetPool } from '../core/limits/budget-pool.js';
import { requestShutdown } from '../core/runs/shutdown.js';
import { closeAllBrowsers } from '../adapters/browser/chromium-profile.js';
import { closeCrawlGuards } from '../workers/run-guards.js';
import { worker } from '../workers/runs-worker.js';
import type { Queue, QueueName, QueueReceiver, ReceivedRecord } from '../ports/queue.js';
import { localDynamoClient, localS3Client } from './embedded-stores.js';
import { localDeps } from './local-deps.js';
import type { CrawlThreadData, FromThread, ThreadCall, ToThread } from './crawl-thread.js';

/** The crawl thread (crawl-thread.ts): runs batches of crawl slices through the runs worker's interpreter. */
const port = parentPort!;
const data = workerData as CrawlThreadData;
setConfig(data.config);
setLogLevel(data.config.logLevel);
// Every tenant's crawl slices run on this thread, which has a budget pool of its own (module state
// is per thread): one tenant's hostile selectors may not hold all of its budget threads.
configureBudgetPool({ shared: true });

let nextCall = 1;
const calls = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
const call = (m: ThreadCall) =>
  new Promise<void>((resolve, reject) => {
    const id = nextCall++;
    calls.set(id, { resolve, reject });
    port.postMessage({ ...m, t: 'call', id } satisfies FromThread);
  });

/** Sends go to the main thread's LocalQueue, which stores and delivers them. */
const queue: Queue = {
  async send(q, message, opts) {
    await call({ op: 'send', args: [q, encodeMessage(q, message), opts] });
  },
};
const receiverFor = (batch: number): QueueReceiver => ({
  retryAfter: (q: QueueName, record: ReceivedRecord, seconds: number) => call({ op: 'retryAfter', batch, args: [q, record, seconds] }),
  deadLetter: (q: QueueName, record: ReceivedRecord, reason: string) => call({ op: 'deadLetter', batch, args: [q, record, reason] }),
  // A hint to the main thread's queue: nothing waits for its answer.
  released: (q: QueueName, record: ReceivedRecord) => void call({ op: 'released', batch, args: [q, record] }).catch(() => undefined),
});

const deps = localDeps(data.config, { dynamo: localDynamoClient(data.dynamoEndpoint), s3: localS3Client(data.s3Endpoint) }, () => queue);
setDeps(deps);

async function runBatch(id: number, event: SQSEvent, remainingMs: number) {
  const deadline = Date.now() + remainingMs;
  try {
    const response = await worker.process(event, { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) }, receiverFor(id));
    port.postMessage({ t: 'done', id, response } satisfies FromThread);
  } catch (err) {
    log.error('crawl thread batch failed', { err });
    port.postMessage({ t: 'done', id, error: err instanceof Error ? err.message : String(err) } satisfies FromThread);
  }
}

async function close() {
  requestShutdown();
  await closeAllBrowsers().catch(() => undefined);
  await closeCrawlGuards();
  await deps.audit.flush().catch((err) => log.error('crawl thread audit flush failed', { err }));
  deps.audit.close?.();
  // Ends this thread only; the stores clients' kept-alive sockets would otherwise keep it open.
  process.exit(0);
}

port.on('message', (m: ToThread) => {
  if (m.t === 'batch') void runBatch(m.id, m.event, m.remainingMs);
  else if (m.t === 'reply') {
    const c = calls.get(m.id);
    calls.delete(m.id);
    if (m.error === undefined) c?.resolve();
    else c?.reject(new Error(m.error));
  } else if (m.t === 'fg') mirrorForeground(m.id, m.mark);
  else if (m.t === 'shutdown') requestShutdown();
  else void close();
});
port.postMessage({ t: 'ready' } satisfies FromThread);
