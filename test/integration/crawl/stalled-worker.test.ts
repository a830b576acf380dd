import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlFrontier, type SliceRef } from '../../../functions/core/crawl/frontier.js';
import { processSlice, type SliceEnv } from '../../../functions/core/crawl/crawl-slice.js';
import type { Engine } from '../../../functions/core/engine/pipeline.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from '../foundation/stores.js';
import { input, LEASE_MS, N, page, url } from './site-graph.js';

/**
 * A worker that stalls without dying (its event loop blocked past its slice's lease, a long GC
 * pause, a call that hangs) is fenced: the slice's retake writes its holder on the crawl's `STATE`
 * first, and every later `STATE` write of the stalled delivery (an admission's count before its
 * claims, a reservation, its commit, page counts) is conditional on it, so on waking the stalled
 * worker claims, numbers and counts nothing more; a reservation it committed before is adopted
 * with its ordinals, and the slices carrying it are written once. Before the fence, a stalled
 * worker that woke after the retake had given its reservation back recorded slices with the old
 * ordinals: pages numbered twice, more items than max_pages (14 to 16 of these 27 cases failed).
 *
 * Each case stalls the worker that makes the crawl's k-th table call (every call of that worker
 * then waits, its table's and its engine's, as a blocked event loop would), lets its lease run out
 * (its slice's message comes back and another worker retakes it), and wakes it at a chosen point
 * of the retake, or once the crawl has nothing left to do.
 */
let table: Table;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());


/** When the stalled worker wakes: after the retaker's n-th table call, or once the crawl has nothing left to do. */
type Wake = number | 'idle';

let seq = 0;
/** Where the worker stalls: at the crawl's k-th table call, or at the first call this predicate picks. */
type At = number | ((method: string, args: unknown[]) => boolean);

async function crawlWithStall(at: At, wake: Wake, workers = 3) {
  const runId = `run_stall_${++seq}`;
  const clock = Date.parse('2026-12-03T10:00:00.000Z');
  const queue: (SliceRef & { redelivered?: boolean })[] = [];
  const base = new CrawlFrontier(table, 'ten_stall', runId);
  for (const s of await base.init(url(0), N, new Date(clock))) queue.push(s);
  const stall = { armed: true, sliceId: '', pending: false, wake: () => {}, gate: Promise.resolve(), fenced: 0, retakerCalls: 0, retaker: '' };
  let attempt = 0;
  let calls = 0;
  let finished = 0;
  const fetches = new Map<string, number>();

  const deliver = async (slice: SliceRef & { redelivered?: boolean }) => {
    const holder = `w${++attempt}`;
    let stalled = false;
    // Every table call of a stalled worker waits for its wake-up, as a blocked event loop would.
    const hold = async () => {
      if (stalled) await stall.gate;
    };
    const t = new Proxy(table, {
      get(target, prop, recv) {
        const v = Reflect.get(target, prop, recv);
        if (typeof v !== 'function') return v;
        return async (...args: unknown[]) => {
          calls++;
          if (holder === stall.retaker && ++stall.retakerCalls === wake) stall.wake();
          if (stall.armed && (typeof at === 'number' ? calls === at : at(String(prop), args))) {
            stall.armed = false;
            stalled = true;
            stall.pending = true;
            stall.sliceId = slice.slice_id;
            stall.gate = new Promise<void>((r) => (stall.wake = r)).then(() => void (stall.pending = false));
            // Its lease runs out while it stalls (only its own: the live workers renew theirs), and
            // SQS delivers the slice's message again.
            await base.releaseSlice(slice.slice_id, holder);
            queue.push({ ...slice, redelivered: true });
          }
          await hold();
          return (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      },
    });
    if (slice.slice_id === stall.sliceId && slice.redelivered && !stall.retaker && stall.pending) stall.retaker = holder;
    const engine = {
      scrapePage: async (u: string) => {
        await hold();
        fetches.set(u, (fetches.get(u) ?? 0) + 1);
        return page(u);
      },
    } as unknown as Engine;
    const env: SliceEnv = {
      frontier: new CrawlFrontier(t, 'ten_stall', runId), engine, input, send: async (s) => {
        await hold();
        queue.push(s);
      },
      putBlob: async (ord) => `blob/${ord}`, now: () => new Date(clock), remainingMs: () => 600_000, shouldStop: () => false, holder, reserveMs: 1000, leaseMs: LEASE_MS,
    };
    try {
      const out = await processSlice(env, slice, url(0));
      if (out.crawlFinished) finished++;
    } catch (err) {
      if (!stalled || !/taken over/.test((err as Error).message)) throw err;
      // The fenced delivery stops; its message (a duplicate of the retaker's) finds the slice leased or gone.
      stall.fenced++;
      queue.push({ ...slice, redelivered: true });
    }
  };
  const worker = async () => {
    for (let idle = 0; idle < 3_000; ) {
      const s = queue.shift();
      if (!s) {
        if (!(await base.hasOpenSlices())) {
          if (!stall.pending) return;
          stall.wake(); // nothing is left (or the retake ended before the chosen call)
        }
        idle++;
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      idle = 0;
      await deliver(s);
    }
    throw new Error('the crawl stalled: slices open and none queued');
  };
  // The stalled delivery holds its worker: the others go on.
  await Promise.all(Array.from({ length: workers }, worker));
  const pages: { url: string; state: string; ord: number }[] = [];
  let cursor: string | undefined;
  do {
    const p = await base.pages({ limit: 200, cursor });
    pages.push(...p.pages);
    cursor = p.cursor ?? undefined;
  } while (cursor);
  // Slices not finished (a finished slice's tombstone, `fin`, is no open slice).
  const left = (await table.query({ pk: `TEN#ten_stall#CRAWL#${runId}`, skBeginsWith: 'SLICE#', consistent: true })).items.filter((i) => !i.fin).length;
  return { pages, finished, counters: (await base.counters())!, stall, fetches, left };
}

describe('a worker that stalls past its lease and wakes up (issue 37: the fence)', () => {
  // k: the crawl's k-th table call (workers' calls only, in any slice: a lease, claims, a
  // reservation, records, counts); wake: early in the retake (2: right after the retaker took the
  // lease and fenced it), part-way through it, or once the crawl has nothing left to do.
  for (const k of [3, 5, 7, 9, 11, 18, 28, 45, 90]) {
    for (const wake of [2, 8, 'idle'] as Wake[]) {
      it(`stalled at the crawl's table call ${k}, woken ${wake === 'idle' ? 'once nothing is left' : `after the retaker's call ${wake}`}: ${N} items, each URL once, one ordinal each`, async () => {
        const r = await crawlWithStall(k, wake);
        expect(r.stall.armed, 'the worker stalled').toBe(false);
        const done = r.pages.filter((p) => p.state === 'done');
        expect(new Set(done.map((p) => p.url)).size).toBe(N);
        expect(r.pages).toHaveLength(N); // no URL under two ordinals, no ordinal past max_pages
        expect(r.counters.admitted).toBe(N);
        expect(r.counters).toMatchObject({ failed: 0, skipped: 0 });
        expect(r.counters.done).toBe(N);
        expect(r.counters.finished_at).not.toBeNull();
        expect(r.finished).toBe(1);
        expect(r.left).toBe(0);
      });
    }
  }
});

describe('a worker that stalls between committing an admission and recording its slices (issue 37)', () => {
  // The one case the fence alone left: the stalled delivery had committed its admission's ordinals
  // and stalled on the write of a slice carrying them; the retake adopted the commit, wrote and
  // sent that slice, and it was worked and finished before the stalled delivery woke and wrote it
  // again (a deleted record said nothing). Its pages were fetched and counted twice.
  const ledgerSlicePut = (method: string, args: unknown[]) => {
    const item = args[0] as { sk?: string } | undefined;
    return method === 'put' && !!item?.sk?.startsWith('SLICE#') && !item.sk.startsWith('SLICE#start#');
  };
  for (const wake of [2, 8, 'idle'] as Wake[]) {
    it(`stalled writing a slice of its committed admission, woken ${wake === 'idle' ? 'once nothing is left' : `after the retaker's call ${wake}`}: every page fetched and counted once`, async () => {
      const r = await crawlWithStall(ledgerSlicePut, wake);
      expect(r.stall.armed, 'the worker stalled').toBe(false);
      expect(r.pages).toHaveLength(N);
      expect(new Set(r.pages.filter((p) => p.state === 'done').map((p) => p.url)).size).toBe(N);
      expect(r.counters).toMatchObject({ admitted: N, done: N, failed: 0, skipped: 0 });
      expect(r.counters.finished_at).not.toBeNull();
      expect(r.finished).toBe(1);
      expect(r.left).toBe(0);
      // The retake fetches again at most the stalled slice's own pages still in flight; the pages of
      // the slice it recorded are fetched once.
      const twice = [...r.fetches.entries()].filter(([, n]) => n > 1).map(([u]) => u);
      expect(twice.length).toBeLessThanOrEqual(input.concurrency);
    });
  }
});
