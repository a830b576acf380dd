import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryStores } from '../foundation/stores.js';
import { LocalQueue, type ConsumeOptions } from '../../../functions/adapters/local/local-queue.js';
import { loadConfig } from '../../../functions/config.js';
import { defineWorker, type Kinds } from '../../../functions/workers/worker-kit.js';
import type { Deps } from '../../../functions/runtime.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

// Fairness of the local queue (issue 12): round-robin by tenant within a queue, and a cap on one
// tenant's crawl pages in flight, so a tenant's big crawl does not hold back another's run.
let table: DynamoTable;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());
const queues: LocalQueue[] = [];
afterEach(() => {
  for (const q of queues.splice(0)) q.stop();
});
const deps = { config: loadConfig({}) } as unknown as Deps;

function setup(kinds: Kinds<'runs'>, opts: Partial<ConsumeOptions> = {}) {
  const q = new LocalQueue(table);
  queues.push(q);
  const consume: ConsumeOptions = { maxReceiveCount: 3, batchSize: 1, concurrency: 1, timeoutSeconds: 30, ...opts };
  const { worker } = defineWorker('runs', kinds, { deps: async () => deps, maxReceiveCount: 3, retryBaseSeconds: 0.01, retryMaxSeconds: 1 });
  q.consume('runs', worker, consume);
  return q;
}
/** Kinds where only crawl slices do anything: `run` is each slice's work. */
const sliceKinds = (timeoutMs: number, run: Kinds<'runs'>['crawl.slice']['run']): Kinds<'runs'> => ({
  'run.start': { timeoutMs: 1000, run: async () => undefined },
  'task.run': { timeoutMs: 1000, run: async () => undefined },
  'crawl.slice': { timeoutMs, run },
});
/** Messages stored before the consumer starts (as after a restart): all visible at once. */
async function preload(fill: (producer: LocalQueue) => Promise<unknown>) {
  const producer = new LocalQueue(table);
  await fill(producer);
  producer.stop();
}
const urls = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({ url: `https://a.test/p/${from + i}`, depth: 1, ord: from + i }));
const tick = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

describe('local queue fairness', () => {
  it("delivers round-robin by tenant: B's one run goes right after A's first slice, not after A's 30", async () => {
    await preload(async (p) => {
      for (let s = 0; s < 30; s++) await p.send('runs', { kind: 'crawl.slice', tenant_id: 'ten_a', run_id: 'run_big', attempt: 1, slice_id: `0#s${s}`, urls: urls(10, s * 10) });
      await p.send('runs', { kind: 'run.start', tenant_id: 'ten_b', run_id: 'run_small' });
      await p.send('runs', { kind: 'run.start', tenant_id: 'ten_c', run_id: 'run_other' });
    });
    const order: string[] = [];
    const q = setup({
      'run.start': { timeoutMs: 1000, run: async (m) => void order.push(`${m.tenant_id}:${m.run_id}`) },
      'task.run': { timeoutMs: 1000, run: async () => undefined },
      'crawl.slice': { timeoutMs: 1000, run: async (m) => void order.push(`${m.tenant_id}:${m.urls[0]!.ord}`) },
    });
    expect(await q.recover()).toBe(32);
    await q.idle();
    expect(order).toHaveLength(32);
    // One message per tenant in turn: A, B, C, then A's remaining slices in their own order.
    expect(order.slice(0, 3)).toEqual(['ten_a:0', 'ten_b:run_small', 'ten_c:run_other']);
    expect(order.slice(3)).toEqual(Array.from({ length: 29 }, (_, s) => `ten_a:${(s + 1) * 10}`));
  });

  it("caps one tenant's crawl pages in flight; the free workers serve other tenants", async () => {
    await preload(async (p) => {
      for (let s = 0; s < 8; s++) await p.send('runs', { kind: 'crawl.slice', tenant_id: 'ten_a', run_id: 'run_cap', attempt: 1, slice_id: `0#s${s}`, urls: urls(10, s * 10) });
      for (let r = 0; r < 3; r++) await p.send('runs', { kind: 'run.start', tenant_id: 'ten_b', run_id: `run_b${r}` });
    });
    let aPages = 0;
    let aPeak = 0;
    let bDoneWhileAWaiting = 0;
    const releases: Array<() => void> = [];
    const q = setup(
      {
        'run.start': {
          timeoutMs: 5000,
          run: async () => {
            if (aPages > 0) bDoneWhileAWaiting++;
          },
        },
        'task.run': { timeoutMs: 1000, run: async () => undefined },
        'crawl.slice': {
          timeoutMs: 5000,
          run: async (m) => {
            aPages += m.urls.length;
            aPeak = Math.max(aPeak, aPages);
            await new Promise<void>((r) => releases.push(r));
            aPages -= m.urls.length;
          },
        },
      },
      { concurrency: 6, tenantCrawlPages: 20 },
    );
    expect(await q.recover()).toBe(11);
    // Six workers, but A may hold only 20 pages (two slices): B's three runs take free workers.
    while (releases.length < 2) await tick();
    for (let i = 0; i < 20; i++) await tick();
    expect(releases).toHaveLength(2);
    expect(q.stats('runs')).toMatchObject({ active: 2 });
    expect(bDoneWhileAWaiting).toBe(3);
    // Release A's slices as they come: every one is delivered, never more than two at once.
    const done = q.idle();
    let finished = false;
    void done.then(() => (finished = true));
    while (!finished) {
      releases.shift()?.();
      await tick();
    }
    expect(aPeak).toBe(20);
  });

  it('weighs a slice by its pages in flight (the crawl concurrency it carries), not by its URLs', async () => {
    // 50-URL slices of a crawl at concurrency 4: each holds 4 pages in flight, so a cap of 20 lets
    // five run at once (as TenantShare: floor(20 / 4)); at concurrency 8 only two.
    for (const [inFlight, expected] of [[4, 5], [8, 2]] as const) {
      await preload(async (p) => {
        for (let s = 0; s < 8; s++) await p.send('runs', { kind: 'crawl.slice', tenant_id: 'ten_w', run_id: `run_w${inFlight}`, attempt: 1, slice_id: `0#w${inFlight}-${s}`, urls: urls(50, s * 50), in_flight: inFlight });
      });
      let active = 0;
      let peak = 0;
      const releases: Array<() => void> = [];
      const q = setup(
        sliceKinds(5000, async () => {
          peak = Math.max(peak, ++active);
          await new Promise<void>((r) => releases.push(r));
          active--;
        }),
        { concurrency: 8, tenantCrawlPages: 20 },
      );
      expect(await q.recover()).toBe(8);
      while (releases.length < expected) await tick();
      for (let i = 0; i < 20; i++) await tick();
      expect(releases).toHaveLength(expected);
      const done = q.idle();
      let finished = false;
      void done.then(() => (finished = true));
      while (!finished) {
        releases.shift()?.();
        await tick();
      }
      expect(peak).toBe(expected);
      q.stop();
    }
  });

  it("starts another tenant's run while every worker is busy with crawl slices (its own invocation, as on AWS)", async () => {
    // The slices wait until the run has started: without a lane of its own the run would wait
    // for a slice to end, and the barrier would open only at its fallback, failing the test.
    let runStarted!: () => void;
    const started = new Promise<'run'>((r) => (runStarted = () => r('run')));
    const met: string[] = [];
    let peakSlices = 0;
    let slices = 0;
    const q = setup({
      'run.start': { timeoutMs: 1000, run: async () => runStarted() },
      'task.run': { timeoutMs: 1000, run: async () => undefined },
      'crawl.slice': {
        timeoutMs: 120_000,
        run: async () => {
          peakSlices = Math.max(peakSlices, ++slices);
          met.push(await Promise.race([started, new Promise<'fallback'>((r) => setTimeout(() => r('fallback'), 60_000).unref())]));
          slices--;
        },
      },
    }, { concurrency: 2, timeoutSeconds: 150 });
    for (let s = 0; s < 4; s++) await q.send('runs', { kind: 'crawl.slice', tenant_id: 'ten_a', run_id: 'run_big', attempt: 1, slice_id: `0#x${s}`, urls: urls(4, s * 4) });
    while (slices < 2) await tick();
    await q.send('runs', { kind: 'run.start', tenant_id: 'ten_b', run_id: 'run_small' });
    await q.idle();
    expect(met, 'the run did not start while both workers were busy with slices').toEqual(['run', 'run', 'run', 'run']);
    expect(peakSlices).toBe(2); // the slices themselves stayed within the bound
    expect(q.stats('runs').peakActive).toBe(3);
  }, 200_000);

  it('starts the next slice once a slice released its slot (its tail only writes), still at most `concurrency` slices fetching', async () => {
    let fetching = 0;
    let peakFetching = 0;
    let tails = 0;
    let peakRunning = 0;
    let running = 0;
    const tailGates: Array<() => void> = [];
    const q = setup(sliceKinds(10_000, async (_m, _d, meta) => {
      peakRunning = Math.max(peakRunning, ++running);
      peakFetching = Math.max(peakFetching, ++fetching);
      await tick();
      fetching--;
      meta.released?.();
      // The tail: held open until the next slice has started its pages.
      tails++;
      await new Promise<void>((r) => tailGates.push(r));
      running--;
    }), { concurrency: 1, timeoutSeconds: 30 });
    for (let s = 0; s < 3; s++) await q.send('runs', { kind: 'crawl.slice', tenant_id: 'ten_a', run_id: 'run_tail', attempt: 1, slice_id: `0#t${s}`, urls: urls(4, s * 4) });
    // Each tail stays open until every slice has reached its own: only released slots let them.
    while (tails < 3) await tick();
    expect(peakRunning).toBe(3);
    expect(peakFetching).toBe(1);
    expect(q.stats('runs').peakActive).toBe(1);
    // Shutdown still waits for the tails.
    let settled = false;
    q.stop();
    const done = q.settled().then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    for (const open of tailGates) open();
    await done;
  }, 60_000);

  it('keeps the slot of a slice that never releases (the SQS receiver has no release)', async () => {
    let running = 0;
    let peak = 0;
    const q = setup(sliceKinds(10_000, async () => {
      peak = Math.max(peak, ++running);
      await tick();
      running--;
    }), { concurrency: 1, timeoutSeconds: 30 });
    for (let s = 0; s < 3; s++) await q.send('runs', { kind: 'crawl.slice', tenant_id: 'ten_a', run_id: 'run_keep', attempt: 1, slice_id: `0#k${s}`, urls: urls(4, s * 4) });
    await q.idle();
    expect(peak).toBe(1);
  }, 60_000);
  it('keeps the order of messages sent within one millisecond', async () => {
    const at = Date.now();
    const now = vi.spyOn(Date, 'now').mockReturnValue(at);
    try {
      await preload(async (p) => {
        for (let s = 0; s < 20; s++) await p.send('runs', { kind: 'crawl.slice', tenant_id: 'ten_a', run_id: 'run_ms', attempt: 1, slice_id: `0#s${s}`, urls: urls(1, s) });
      });
    } finally {
      now.mockRestore();
    }
    const order: number[] = [];
    const q = setup(sliceKinds(1000, async (m) => void order.push(m.urls[0]!.ord)));
    expect(await q.recover()).toBe(20);
    await q.idle();
    expect(order).toEqual(Array.from({ length: 20 }, (_, s) => s));
  });
});
