import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryStores } from './stores.js';
import { LocalQueue, type ConsumeOptions } from '../../../functions/adapters/local/local-queue.js';
import { NonRetryableError } from '../../../functions/core/errors.js';
import { loadConfig } from '../../../functions/config.js';
import { log } from '../../../functions/core/log.js';
import { defineWorker, type Kinds } from '../../../functions/workers/worker-kit.js';
import type { QueueName } from '../../../functions/ports/queue.js';
import type { Deps } from '../../../functions/runtime.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

let table: DynamoTable;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());
const queues: LocalQueue[] = [];
afterEach(() => {
  for (const q of queues.splice(0)) q.stop();
  vi.restoreAllMocks();
});

// The interpreter's dependencies: only config is read by the interpreter itself.
const deps = { config: loadConfig({}) } as unknown as Deps;

/** A LocalQueue running a worker built by the same defineWorker as the real workers. */
function setup<Q extends QueueName>(queue: Q, kinds: Kinds<Q>, opts: Partial<ConsumeOptions> = {}) {
  const q = new LocalQueue(table);
  queues.push(q);
  const consume: ConsumeOptions = { maxReceiveCount: 3, batchSize: 1, concurrency: 1, timeoutSeconds: 30, ...opts };
  const { worker } = defineWorker(queue, kinds, { deps: async () => deps, maxReceiveCount: consume.maxReceiveCount, retryBaseSeconds: 0.01, retryMaxSeconds: 1 });
  q.consume(queue, worker, consume);
  return q;
}
const items = async (pk: string) => (await table.query({ pk })).items;
/** Messages stored before any consumer runs (a producer process, or a previous run of this one). */
async function preload(fill: (producer: LocalQueue) => Promise<unknown>) {
  const producer = new LocalQueue(table);
  await fill(producer);
  producer.stop();
}
const noRun: Kinds<'runs'>['task.run'] = { timeoutMs: 1000, run: async () => undefined };
const noSlice: Kinds<'runs'>['crawl.slice'] = { timeoutMs: 1000, run: async () => undefined };

describe('LocalQueue running the worker interpreter', () => {
  it('settles on shutdown once the invocations running have ended, whatever waits or is delayed (it stays stored)', async () => {
    let finish!: () => void;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const q = setup('runs', {
      'run.start': { timeoutMs: 5000, run: () => (started(), new Promise<void>((r) => (finish = r))) },
      'task.run': noRun,
      'crawl.slice': noSlice,
    });
    await q.send('runs', { kind: 'run.start', tenant_id: 't', run_id: 'r-settle' });
    await q.send('runs', { kind: 'run.start', tenant_id: 't', run_id: 'r-later' }, { delaySeconds: 600 });
    await running;
    q.stop();
    let settled = false;
    void q.settled().then(() => (settled = true));
    let idle = false;
    void q.idle().then(() => (idle = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false); // an invocation is still running
    finish();
    await q.settled();
    expect(idle).toBe(false); // the delayed message is not done, and is not waited for
    const left = await items('LQ#runs');
    expect(left.map((i) => JSON.parse(i.body as string).run_id)).toEqual(['r-later']);
    for (const i of left) await table.delete({ pk: i.pk as string, sk: i.sk as string }); // the other tests' queue starts empty
  });

  it('retries a failing message with backoff, then dead-letters it after maxReceiveCount and marks its record failed', async () => {
    const seen: number[] = [];
    const failed: string[] = [];
    const retryAfter = vi.spyOn(LocalQueue.prototype, 'retryAfter');
    const q = setup('runs', {
      'run.start': {
        timeoutMs: 1000,
        run: async (_m, _d, meta) => {
          seen.push(meta.receiveCount);
          throw new Error('boom');
        },
        onDeadLetter: async (m, _d, e) => void failed.push(`${m.run_id}:${e}`),
      },
      'task.run': noRun,
      'crawl.slice': noSlice,
    });
    await q.send('runs', { kind: 'run.start', tenant_id: 't', run_id: 'r1' });
    await q.idle();
    expect(seen).toEqual([1, 2, 3]);
    // Exponential: base 0.01 s, doubled per receive; none after the last receive.
    expect(retryAfter.mock.calls.map((c) => c[2])).toEqual([0.01, 0.02]);
    expect(failed).toEqual(['r1:boom']);
    expect(await items('LQ#runs')).toHaveLength(0);
    const dead = await items('LDLQ#runs');
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ error: 'boom', receive_count: 3 });
    expect(JSON.parse(String(dead[0]!.body))).toEqual({ kind: 'run.start', tenant_id: 't', run_id: 'r1' });
  });

  it('does not retry a non-retryable error', async () => {
    let calls = 0;
    const failed: string[] = [];
    const q = setup('jobs', {
      'job.fire': {
        timeoutMs: 1000,
        run: async () => {
          calls++;
          throw new NonRetryableError('bad input');
        },
        onDeadLetter: async (_m, _d, e) => void failed.push(e),
      },
      'storage.sweep': { timeoutMs: 1000, run: async () => undefined },
    }, { maxReceiveCount: 5 });
    await q.send('jobs', { kind: 'job.fire', tenant_id: 't', job_id: 'j' });
    await q.idle();
    expect(calls).toBe(1);
    expect(failed).toEqual(['bad input']);
    expect((await items('LDLQ#jobs')).map((i) => i.error)).toContain('bad input');
  });

  it('dead-letters a record that is not JSON or not the queue schema, with a log line, never running it', async () => {
    let ran = 0;
    const errors = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const q = setup('queries', { 'query.run': { timeoutMs: 1000, run: async () => void ran++ } });
    await q.sendRaw('queries', 'not json {');
    await q.sendRaw('queries', JSON.stringify({ kind: 'query.run', tenant_id: 't' }));
    await q.sendRaw('queries', JSON.stringify({ kind: 'query.explode', tenant_id: 't', query_id: 'q' }));
    await q.idle();
    expect(ran).toBe(0);
    const dead = (await items('LDLQ#queries')).map((i) => String(i.error));
    expect(dead).toHaveLength(3);
    expect(dead).toEqual(expect.arrayContaining([
      expect.stringMatching(/^malformed message: the body is not JSON/),
      expect.stringMatching(/^malformed message: not a queries message: query_id/),
      expect.stringMatching(/^malformed message: not a queries message: kind/),
    ]));
    expect(errors.mock.calls.filter((c) => c[0] === 'malformed message dead-lettered')).toHaveLength(3);
    expect(await items('LQ#queries')).toHaveLength(0);
  });

  it('refuses to send a message that does not match its queue schema', async () => {
    const q = setup('deliveries', {
      'job.completed': { timeoutMs: 1000, run: async () => undefined },
      'run.completed': { timeoutMs: 1000, run: async () => undefined },
      'delivery.attempt': { timeoutMs: 1000, run: async () => undefined },
      'sync.put': { timeoutMs: 1000, run: async () => undefined },
      'page.changed': { timeoutMs: 1000, run: async () => undefined },
    });
    // @ts-expect-error seq is required: the compiler refuses it too
    await expect(q.send('deliveries', { kind: 'delivery.attempt', tenant_id: 't', delivery_id: 'd' })).rejects.toThrow(/malformed deliveries message: seq/);
    // @ts-expect-error run.start belongs to the runs queue
    await expect(q.send('deliveries', { kind: 'run.start', tenant_id: 't', run_id: 'r' })).rejects.toThrow(/malformed deliveries message/);
    expect(await items('LQ#deliveries')).toHaveLength(0);
  });

  it('runs the records of one batch concurrently, reporting only the failed one for retry', async () => {
    // A barrier the ten records meet: each first attempt waits until all ten have started, so the
    // barrier opens only if they run at the same time, whatever the machine's load. Records run
    // one after another would never open it: a generous fallback (well inside the records' budget)
    // then ends the wait and the test fails saying how many had started.
    const N = 10;
    let started = 0;
    let release!: () => void;
    const allStarted = new Promise<'all'>((r) => (release = () => r('all')));
    let fallback: Promise<'fallback'> | undefined;
    const meetings: ('all' | 'fallback')[] = [];
    const done: number[] = [];
    const attempts = new Map<number, number>();
    // Queued before the consumer starts, so they arrive as one batch of 10.
    await preload((p) => Promise.all(Array.from({ length: N }, (_, seq) => p.send('deliveries', { kind: 'delivery.attempt', tenant_id: 't', delivery_id: `d${seq}`, seq }))));
    const consumer = setup('deliveries', {
      'delivery.attempt': {
        timeoutMs: 150_000,
        async run(m) {
          fallback ??= new Promise((r) => setTimeout(() => r('fallback'), 90_000).unref());
          if (++started === N) release();
          if (started <= N) meetings.push(await Promise.race([allStarted, fallback]));
          attempts.set(m.seq, (attempts.get(m.seq) ?? 0) + 1);
          if (m.seq === 3 && attempts.get(3) === 1) throw new Error('endpoint slow');
          done.push(m.seq);
        },
      },
      'job.completed': { timeoutMs: 1000, run: async () => undefined },
      'run.completed': { timeoutMs: 1000, run: async () => undefined },
      'sync.put': { timeoutMs: 1000, run: async () => undefined },
      'page.changed': { timeoutMs: 1000, run: async () => undefined },
    }, { batchSize: 10, concurrency: 1, timeoutSeconds: 170 });
    expect(await consumer.recover()).toBe(N);
    await consumer.idle();
    const metAll = meetings.filter((x) => x === 'all').length;
    expect(metAll, `the barrier did not open: only ${Math.min(started, N)} of ${N} records of one batch were running at once before the fallback`).toBe(N);
    expect(done.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(attempts.get(3)).toBe(2);
    expect([...attempts.values()].reduce((a, b) => a + b)).toBe(11); // only the failed record came back
    expect(await items('LQ#deliveries')).toHaveLength(0);
  }, 200_000);

  it('queues a burst behind the concurrency bound, and finishes it', async () => {
    let active = 0;
    let peak = 0;
    const finished: string[] = [];
    const q = setup('runs', {
      'run.start': {
        timeoutMs: 5000,
        async run(m) {
          active++;
          peak = Math.max(peak, active);
          for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
          active--;
          finished.push(m.run_id);
        },
      },
      'task.run': noRun,
      'crawl.slice': noSlice,
    }, { concurrency: 2, batchSize: 1 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => q.send('runs', { kind: 'run.start', tenant_id: 't', run_id: `burst-${i}` })));
    await q.idle();
    expect(peak).toBe(2);
    expect(finished.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `burst-${i}`).sort());
    expect(await items('LQ#runs')).toHaveLength(0);
  });

  it('gives each record a budget below the invocation timeout: a hung record is retried, its batch-mates finish', async () => {
    const outcomes: string[] = [];
    await preload(async (p) => {
      await p.send('jobs', { kind: 'job.fire', tenant_id: 't', job_id: 'hangs' });
      await p.send('jobs', { kind: 'job.fire', tenant_id: 't', job_id: 'quick' });
    });
    const consumer = setup('jobs', {
      'job.fire': {
        timeoutMs: 600_000,
        async run(m, _d, meta) {
          if (m.job_id === 'hangs' && meta.receiveCount === 1) {
            await new Promise<void>((r) => meta.signal.addEventListener('abort', () => r()));
            outcomes.push('aborted');
            return new Promise(() => undefined);
          }
          outcomes.push(`${m.job_id}#${meta.receiveCount}`);
        },
      },
      'storage.sweep': { timeoutMs: 1000, run: async () => undefined },
    }, { timeoutSeconds: 1, batchSize: 2 });
    await consumer.recover();
    await consumer.idle();
    expect(outcomes.sort()).toEqual(['aborted', 'hangs#2', 'quick#1']);
    expect(await items('LQ#jobs')).toHaveLength(0);
  });

  it('delivers unfinished messages again after a restart (durable until acknowledged)', async () => {
    let started = 0;
    const first = setup('queries', {
      'query.run': {
        timeoutMs: 60_000,
        run: async () => {
          started++;
          await new Promise(() => undefined); // the process "crashes" mid-message
        },
      },
    });
    await first.send('queries', { kind: 'query.run', tenant_id: 't', query_id: 'q1' });
    await first.send('queries', { kind: 'query.run', tenant_id: 't', query_id: 'q2' }, { delaySeconds: 3600 });
    await vi.waitFor(() => expect(started).toBe(1));
    first.stop();

    const got: string[] = [];
    const second = setup('queries', { 'query.run': { timeoutMs: 1000, run: async (m) => void got.push(m.query_id) } }, { concurrency: 2 });
    expect(await second.recover()).toBe(2);
    await vi.waitFor(() => expect(got).toEqual(['q1']));
    expect(await second.depth('queries')).toBe(1); // the delayed one keeps its delay
  });
});
