import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlFrontier, ownId, type SliceRef } from '../../../functions/core/crawl/frontier.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from '../foundation/stores.js';
import { SLICE_MAX_URLS } from '../../../functions/core/queue-messages.js';

// The frontier on the real DynamoDB adapter (dynalite): its conditional writes and atomic counters
// are what make many workers share one crawl safely.
let table: Table;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

const now = new Date('2026-11-23T10:00:00.000Z');
let runSeq = 0;
const frontier = () => new CrawlFrontier(table, 'ten_test', `run_${++runSeq}`);

/** A site graph: page i links to 3 others (deterministic), `n` pages in all. */
const links = (i: number, n: number) => [(i * 7 + 1) % n, (i * 13 + 5) % n, (i + 1) % n].map((j) => `https://site.test/p/${j}`);
const pageNo = (url: string) => Number(url.split('/').pop());

/**
 * Drives a crawl with `workers` concurrent consumers over an in-memory queue of slices, the way
 * the runs worker does: lease the slice, "fetch" each page, admit its links, write the new pages
 * with their slices, send those, write the outcomes, then finish the slice. `duplicateEvery` makes
 * the queue deliver some messages twice (SQS is at-least-once), sometimes after the first
 * delivery finished the slice.
 */
async function crawl(f: CrawlFrontier, opts: { n: number; maxPages: number; workers: number; sliceSize?: number; duplicateEvery?: number }) {
  const queue: SliceRef[] = [];
  const fetched: number[] = [];
  let completions = 0;
  let sent = 0;
  const push = (slice: SliceRef) => {
    queue.push(slice);
    sent++;
    if (opts.duplicateEvery && sent % opts.duplicateEvery === 0) queue.push(slice);
  };
  const first = await f.init('https://site.test/p/0', opts.maxPages, now);
  expect(first).toHaveLength(1);
  expect(first[0]!.urls).toHaveLength(1);
  queue.push(first[0]!);
  const worker = async (id: number) => {
    for (;;) {
      const slice = queue.shift();
      if (!slice) {
        if (!(await f.hasOpenSlices())) return;
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      const lease = await f.leaseSlice(slice.slice_id, `w${id}`, 60_000, now);
      if (lease.state === 'gone') continue;
      if (lease.state === 'busy') {
        queue.push(slice);
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      const outcomes = [];
      for (const u of slice.urls) {
        fetched.push(pageNo(u.url));
        const { urls, pageRecords } = await f.admit(links(pageNo(u.url), opts.n).map((url) => ({ url, depth: u.depth + 1, parent: u.ord })), { retake: false });
        const size = opts.sliceSize ?? 5;
        const slices = Array.from({ length: Math.ceil(urls.length / size) }, (_, i) => f.sliceRecord(ownId(slice.slice_id), urls.slice(i * size, (i + 1) * size)));
        await f.writeBatch([...pageRecords, ...slices.map((x) => x.item)]);
        slices.forEach((x) => push(x.ref));
        outcomes.push(f.outcomeRecord(u, { state: 'done', item: { url: u.url } }, now));
      }
      await f.writeBatch(outcomes);
      if ((await f.finishSlice(slice.slice_id, now, { done: outcomes.length })).finished) completions++;
    }
  };
  await Promise.all(Array.from({ length: opts.workers }, (_, i) => worker(i)));
  return { fetched, completions };
}

const cands = (urls: string[], parent: number) => urls.map((url) => ({ url, depth: 1, parent }));

describe('crawl frontier on dynalite', () => {
  it('init is idempotent: a second start admits nothing', async () => {
    const f = frontier();
    const first = await f.init('https://site.test/', 10, now);
    expect(first).toEqual([{ slice_id: 'start#0', urls: [{ url: 'https://site.test/', depth: 0, ord: 0 }] }]);
    // Again (a redelivered start): the same first slice, so it is sent at least once; nothing new admitted.
    expect(await f.init('https://site.test/', 10, now)).toEqual(first);
    expect(await f.counters()).toMatchObject({ admitted: 1, max_pages: 10, finished_at: null });
  });

  it('seeds several URLs (sitemaps) in slices of SLICE_MAX_URLS, in the order given, within max_pages', async () => {
    const f = frontier();
    const seeds = [{ url: 'https://site.test/', depth: 0 }, ...Array.from({ length: 2 * SLICE_MAX_URLS + 20 }, (_, i) => ({ url: `https://site.test/s/${i}`, depth: 1 }))];
    const max = SLICE_MAX_URLS + 20;
    const slices = await f.init(seeds, max, now);
    expect(slices.map((s) => s.slice_id)).toEqual(['start#0', 'start#1']);
    expect(slices.map((s) => s.urls.length)).toEqual([SLICE_MAX_URLS, 20]);
    expect(slices.flatMap((s) => s.urls.map((u) => u.url))).toEqual(seeds.slice(0, max).map((s) => s.url));
    expect(await f.init(seeds, max, now)).toEqual(slices);
    expect((await f.pages({ limit: 500 })).pages).toHaveLength(max);
  });

  it('admits each URL once across racing workers, with unique ordinals', async () => {
    const f = frontier();
    await f.init('https://site.test/', 1000, now);
    const urls = Array.from({ length: 40 }, (_, i) => `https://site.test/${i}`);
    const results = await Promise.all([0, 1, 2, 3].map((w) => f.admit(cands([...urls].sort(() => (w % 2 ? 1 : -1)), w + 100))));
    const all = results.flatMap((r) => r.urls);
    expect(all.map((u) => u.url).sort()).toEqual([...urls].sort());
    expect(new Set(all.map((u) => u.ord)).size).toBe(40);
    expect(results.flatMap((r) => r.pageRecords)).toHaveLength(40);
  });

  it('never admits more than max_pages in total, whoever asks', async () => {
    const f = frontier();
    await f.init('https://site.test/', 10, now);
    const batches = [0, 1, 2].map((b) => Array.from({ length: 8 }, (_, i) => `https://site.test/${b}/${i}`));
    const admitted = (await Promise.all(batches.map((b, i) => f.admit(cands(b, 100 + i))))).flatMap((r) => r.urls);
    expect(admitted).toHaveLength(9);
    expect((await f.counters())!.admitted).toBe(10);
    expect((await f.admit(cands(['https://site.test/late'], 7))).urls).toEqual([]);
  });

  it('crawls a graph with 4 workers and duplicated messages: every reachable page once, completed exactly once', async () => {
    const f = frontier();
    const { fetched, completions } = await crawl(f, { n: 60, maxPages: 1000, workers: 4, duplicateEvery: 3 });
    expect(completions).toBe(1);
    expect(fetched.length).toBe(60);
    expect(new Set(fetched).size).toBe(60);
    const c = (await f.counters())!;
    expect(c).toMatchObject({ admitted: 60, done: 60 });
    expect(await f.hasOpenSlices()).toBe(false);
    expect(c.finished_at).not.toBeNull();
    const { pages } = await f.pages({ limit: 100 });
    expect(pages.map((p) => p.ord)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(pages.every((p) => p.state === 'done')).toBe(true);
  });

  it('stops at max_pages and still completes exactly once', async () => {
    const f = frontier();
    const { fetched, completions } = await crawl(f, { n: 200, maxPages: 25, workers: 3 });
    expect(completions).toBe(1);
    expect(fetched.length).toBe(25);
  });

  it('a slice is worked by one delivery at a time; a dead worker\'s slice is taken over as a retake once its lease ends', async () => {
    const f = frontier();
    const [first] = await f.init('https://site.test/p/0', 100, now);
    expect(await f.leaseSlice(first!.slice_id, 'dead-worker', 1_000, now)).toEqual({ state: 'taken', retaken: false });
    expect(await f.leaseSlice(first!.slice_id, 'other', 60_000, now)).toEqual({ state: 'busy', until: now.getTime() + 1_000 });
    const later = new Date(now.getTime() + 5_000);
    expect(await f.leaseSlice(first!.slice_id, 'new-worker', 60_000, later)).toEqual({ state: 'taken', retaken: true });
    expect((await f.finishSlice(first!.slice_id, later, { done: 1 })).counters).toMatchObject({ done: 1 });
    expect(await f.leaseSlice(first!.slice_id, 'late', 60_000, later)).toEqual({ state: 'gone' });
  });

  it('a page re-processed after a crash re-admits the links it had claimed (none lost, none numbered twice)', async () => {
    const f = frontier();
    const [start] = (await f.init('https://site.test/p/0', 100, now))[0]!.urls;
    const children = links(2, 60); // three distinct pages
    const firstTry = await f.admit(cands(children, start!.ord), { retake: false });
    expect(firstTry.urls).toHaveLength(3);
    // Another page that links to the same URLs gets nothing: they belong to page 0.
    expect((await f.admit(cands(children, 99))).urls).toEqual([]);
    // The retake of page 0 gets the same children back, numbered as before, with no new ordinal.
    const again = await f.admit(cands(children, start!.ord), { retake: true });
    expect(again.urls).toEqual(firstTry.urls);
    expect(again.pageRecords).toEqual([]);
    expect((await f.counters())!.admitted).toBe(4);
  });

  it('a slice delivered again after it finished neither counts twice nor ends the crawl while another slice is open', async () => {
    const f = frontier();
    const [first] = await f.init('https://site.test/p/0', 100, now);
    const [a, b] = [await f.openSlice(ownId(first!.slice_id), first!.urls), await f.openSlice(ownId(first!.slice_id), first!.urls)];
    expect((await f.finishSlice(first!.slice_id, now, { done: 1 })).finished).toBe(false);
    expect((await f.finishSlice(a.slice_id, now, { done: 2 })).finished).toBe(false);
    // `a` again (a duplicate delivery): no count, and `b` keeps the crawl open.
    expect(await f.finishSlice(a.slice_id, now, { done: 2 })).toMatchObject({ finished: false, counters: { done: 3 } });
    expect(await f.finishSlice(first!.slice_id, now, { done: 1 })).toMatchObject({ finished: false, counters: { done: 3 } });
    expect(await f.hasOpenSlices()).toBe(true);
    expect((await f.finishSlice(b.slice_id, now)).finished).toBe(true);
    expect((await f.finishSlice(b.slice_id, now)).finished).toBe(false); // exactly once
  });

  it('lists the slices a slice recorded, so a redelivery can send any whose message was lost', async () => {
    const f = frontier();
    const [first] = await f.init('https://site.test/p/0', 100, now);
    const child = await f.openSlice(ownId(first!.slice_id), first!.urls);
    await f.openSlice(ownId(child.slice_id), first!.urls); // a grandchild: not the first slice's
    expect(await f.sentBy(first!.slice_id)).toEqual([child]);
  });

  it('a retake re-creates a page record a cut-short batch left out, never resetting one that exists', async () => {
    const f = frontier();
    const [start] = (await f.init('https://site.test/p/0', 100, now))[0]!.urls;
    const children = links(2, 60);
    // The first try numbered the claims, then died: one page record written, one done since, one never written.
    const firstTry = await f.admit(cands(children, start!.ord), { retake: false });
    await f.writeBatch([firstTry.pageRecords[0]!, f.outcomeRecord(firstTry.urls[1]!, { state: 'done', item: { kept: true } }, now)]);
    expect((await f.admit(cands(children, start!.ord))).urls).toEqual(firstTry.urls);
    expect(await f.page(firstTry.urls[0]!.ord)).toMatchObject({ state: 'queued', url: firstTry.urls[0]!.url });
    expect(await f.page(firstTry.urls[1]!.ord)).toMatchObject({ state: 'done', item: { kept: true } });
    expect(await f.page(firstTry.urls[2]!.ord)).toMatchObject({ state: 'queued', url: firstTry.urls[2]!.url });
  });

  it('ordinals reserved by a worker that died before numbering its claims come back at the crawl\'s end (repair)', async () => {
    const f = frontier();
    const [first] = await f.init('https://site.test/p/0', 4, now);
    // Reserve 3 ordinals and die before writing them on the claims: the budget (4) looks spent.
    const dying = new CrawlFrontier(table, 'ten_test', f.runId, (step) => {
      if (step === 'reserve') throw new Error('killed');
    });
    await expect(dying.admit(cands(links(2, 60), 0), { retake: false })).rejects.toThrow('killed');
    expect((await f.counters())!.admitted).toBe(4);
    expect((await f.admit(cands(['https://site.test/x'], 0), { retake: false })).urls).toEqual([]);
    // The slice is retaken (noted), then finishes last: the end finds the unnumbered claims and numbers them.
    await f.noteRetake();
    await f.writeBatch([f.outcomeRecord(first!.urls[0]!, { state: 'done', item: {} }, now)]);
    const end = await f.finishSlice(first!.slice_id, now, { done: 1 }, 'me');
    expect(end.finished).toBe(false);
    const repaired = end.repair!.flatMap((s) => s.urls);
    expect(repaired.map((u) => u.url).sort()).toEqual([...links(2, 60), 'https://site.test/x'].sort().slice(0, 3).sort());
    expect((await f.counters())!.admitted).toBe(4);
    for (const s of end.repair!) {
      await f.writeBatch(s.urls.map((u) => f.outcomeRecord(u, { state: 'done', item: {} }, now)));
      await f.finishSlice(s.slice_id, now, { done: s.urls.length });
    }
    expect((await f.finishSlice(first!.slice_id, now, {}, 'me')).finished).toBe(true);
    const { pages } = await f.pages({ limit: 10 });
    expect(pages).toHaveLength(4);
    expect(new Set(pages.map((p) => p.url)).size).toBe(4);
    expect((await f.counters())!).toMatchObject({ done: 4, admitted: 4 });
  });
});
