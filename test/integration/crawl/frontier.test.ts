import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlFrontier, ownId, type FrontierUrl, type SliceRef } from '../../../functions/core/crawl/frontier.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from '../foundation/stores.js';

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
 * the runs worker does: lease each page, "fetch" it, admit its links, record and send child
 * slices, record the page, then finish the slice. `duplicateEvery` makes the queue deliver some
 * messages twice (SQS is at-least-once), sometimes after the first delivery finished the slice.
 */
async function crawl(f: CrawlFrontier, opts: { n: number; maxPages: number; workers: number; sliceSize?: number; duplicateEvery?: number }) {
  const queue: SliceRef[] = [];
  const fetched: number[] = [];
  let completions = 0;
  let sent = 0;
  const send = async (from: string, urls: FrontierUrl[]) => {
    for (let i = 0; i < urls.length; i += opts.sliceSize ?? 5) {
      const slice = await f.openSlice(ownId(from), urls.slice(i, i + (opts.sliceSize ?? 5)));
      queue.push(slice);
      sent++;
      if (opts.duplicateEvery && sent % opts.duplicateEvery === 0) queue.push(slice);
    }
  };
  const first = await f.init('https://site.test/p/0', opts.maxPages, now);
  expect(first!.urls).toHaveLength(1);
  queue.push(first!);
  const worker = async (id: number) => {
    for (;;) {
      const slice = queue.shift();
      if (!slice) {
        if (!(await f.hasOpenSlices())) return;
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      let done = 0;
      for (const u of slice.urls) {
        if ((await f.lease(u.ord, `w${id}`, 60_000, now)).state !== 'taken') continue;
        fetched.push(pageNo(u.url));
        const admitted = await f.admit(links(pageNo(u.url), opts.n).map((url) => ({ url, depth: u.depth + 1 })), u.ord);
        await send(slice.slice_id, admitted);
        if (await f.record(u.ord, { state: 'done', item: { url: u.url } }, now)) done++;
      }
      if ((await f.finishSlice(slice.slice_id, now, { done })).finished) completions++;
    }
  };
  await Promise.all(Array.from({ length: opts.workers }, (_, i) => worker(i)));
  return { fetched, completions };
}

describe('crawl frontier on dynalite', () => {
  it('init is idempotent: a second start admits nothing', async () => {
    const f = frontier();
    const first = await f.init('https://site.test/', 10, now);
    expect(first).toEqual({ slice_id: 'start#0', urls: [{ url: 'https://site.test/', depth: 0, ord: 0 }] });
    // Again (a redelivered start): the same first slice, so it is sent at least once; nothing new admitted.
    expect(await f.init('https://site.test/', 10, now)).toEqual(first);
    expect(await f.counters()).toMatchObject({ admitted: 1, max_pages: 10, finished_at: null });
  });

  it('admits each URL once across racing workers, with unique ordinals', async () => {
    const f = frontier();
    await f.init('https://site.test/', 1000, now);
    const urls = Array.from({ length: 40 }, (_, i) => ({ url: `https://site.test/${i}`, depth: 1 }));
    const results = await Promise.all([0, 1, 2, 3].map((w) => f.admit([...urls].sort(() => (w % 2 ? 1 : -1)), 0 + w + 100)));
    const all = results.flat();
    expect(all.map((u) => u.url).sort()).toEqual(urls.map((u) => u.url).sort());
    expect(new Set(all.map((u) => u.ord)).size).toBe(40);
  });

  it('never admits more than max_pages in total, whoever asks', async () => {
    const f = frontier();
    await f.init('https://site.test/', 10, now);
    const batches = [0, 1, 2].map((b) => Array.from({ length: 8 }, (_, i) => ({ url: `https://site.test/${b}/${i}`, depth: 1 })));
    const admitted = (await Promise.all(batches.map((b) => f.admit(b)))).flat();
    expect(admitted).toHaveLength(9);
    expect((await f.counters())!.admitted).toBe(10);
    expect(await f.admit([{ url: 'https://site.test/late', depth: 1 }])).toEqual([]);
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

  it('a page re-processed after a crash re-queues the links it had claimed (none lost) and records once', async () => {
    const f = frontier();
    const [start] = (await f.init('https://site.test/p/0', 100, now))!.urls;
    // First attempt: claims and queues the children, then "dies" before sending or recording.
    expect(await f.lease(start!.ord, 'dead-worker', 1_000, now)).toEqual({ state: 'taken', retaken: false });
    const children = links(2, 60).map((url) => ({ url, depth: 1 })); // three distinct pages
    const firstTry = await f.admit(children, start!.ord);
    expect(firstTry).toHaveLength(3);
    // Another page that links to the same URLs gets nothing: they belong to page 0.
    expect(await f.admit(children, 99)).toEqual([]);
    // Redelivery after the lease expired: a new worker takes the page and gets the same children back.
    const later = new Date(now.getTime() + 5_000);
    expect(await f.lease(start!.ord, 'other', 60_000, now)).toEqual({ state: 'busy', until: now.getTime() + 1_000 });
    expect(await f.lease(start!.ord, 'new-worker', 60_000, later)).toEqual({ state: 'taken', retaken: true });
    expect(await f.admit(children, start!.ord)).toEqual(firstTry);
    expect(await f.record(start!.ord, { state: 'done', item: { n: 1 } }, later)).toBe(true);
    expect(await f.record(start!.ord, { state: 'done', item: { n: 2 } }, later)).toBe(false);
    expect((await f.page(start!.ord))!.item).toEqual({ n: 1 });
    // The slice adds what it recorded once, with its finish.
    expect((await f.finishSlice('start#0', later, { done: 1 })).counters).toMatchObject({ done: 1 });
  });

  it('a slice delivered again after it finished neither counts twice nor ends the crawl while another slice is open', async () => {
    const f = frontier();
    const first = (await f.init('https://site.test/p/0', 100, now))!;
    const [a, b] = [await f.openSlice(ownId(first.slice_id), first.urls), await f.openSlice(ownId(first.slice_id), first.urls)];
    expect((await f.finishSlice(first.slice_id, now, { done: 1 })).finished).toBe(false);
    expect((await f.finishSlice(a.slice_id, now, { done: 2 })).finished).toBe(false);
    // `a` again (a duplicate delivery): no count, and `b` keeps the crawl open.
    expect(await f.finishSlice(a.slice_id, now, { done: 2 })).toMatchObject({ finished: false, counters: { done: 3 } });
    expect(await f.finishSlice(first.slice_id, now, { done: 1 })).toMatchObject({ finished: false, counters: { done: 3 } });
    expect(await f.hasOpenSlices()).toBe(true);
    expect((await f.finishSlice(b.slice_id, now)).finished).toBe(true);
    expect((await f.finishSlice(b.slice_id, now)).finished).toBe(false); // exactly once
  });

  it('lists the slices a slice recorded, so a redelivery can send any whose message was lost', async () => {
    const f = frontier();
    const first = (await f.init('https://site.test/p/0', 100, now))!;
    const child = await f.openSlice(ownId(first.slice_id), first.urls);
    await f.openSlice(ownId(child.slice_id), first.urls); // a grandchild: not the first slice's
    expect(await f.sentBy(first.slice_id)).toEqual([child]);
  });

  it('a retake re-creates a page record a partial batch write left out, never resetting one that exists', async () => {
    const f = frontier();
    const [start] = (await f.init('https://site.test/p/0', 100, now))!.urls;
    const children = links(2, 60).map((url) => ({ url, depth: 1 }));
    const firstTry = await f.admit(children, start!.ord);
    // The batch wrote the claims (with their ordinals) but lost one page record; another is done.
    await table.delete({ pk: `TEN#ten_test#CRAWL#${f.runId}`, sk: `ORD#${String(firstTry[0]!.ord).padStart(10, '0')}` });
    await f.lease(firstTry[1]!.ord, 'w', 60_000, now);
    await f.record(firstTry[1]!.ord, { state: 'done', item: { kept: true } }, now);
    expect(await f.admit(children, start!.ord)).toEqual(firstTry);
    expect(await f.page(firstTry[0]!.ord)).toMatchObject({ state: 'queued', url: firstTry[0]!.url });
    expect(await f.page(firstTry[1]!.ord)).toMatchObject({ state: 'done', item: { kept: true } });
  });
});
