import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionChunks, CrawlFrontier, MAX_URL_LENGTH, ownId, SliceFencedError, type SliceRef, type SliceStep } from '../../../functions/core/crawl/frontier.js';
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
        const { urls, ledger } = await f.admit(links(pageNo(u.url), opts.n).map((url) => ({ url, depth: u.depth + 1, parent: u.ord })), slice.slice_id);
        const size = opts.sliceSize ?? 5;
        const slices = Array.from({ length: Math.ceil(urls.length / size) }, (_, i) => f.sliceRecord(ownId(slice.slice_id), urls.slice(i * size, (i + 1) * size)));
        await f.writeBatch(slices.map((x) => x.item));
        await f.settle([ledger]);
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
    expect(first).toEqual([{ slice_id: 'start#0000000000', urls: [{ url: 'https://site.test/', depth: 0, ord: 0 }] }]);
    // Again (a redelivered start): the same first slice, so it is sent at least once; nothing new admitted.
    expect(await f.init('https://site.test/', 10, now)).toEqual(first);
    expect(await f.counters()).toMatchObject({ admitted: 1, max_pages: 10, finished_at: null });
  });

  it('seeds several URLs (sitemaps) in slices of SLICE_MAX_URLS, in the order given, within max_pages', async () => {
    const f = frontier();
    const seeds = [{ url: 'https://site.test/', depth: 0 }, ...Array.from({ length: 2 * SLICE_MAX_URLS + 20 }, (_, i) => ({ url: `https://site.test/s/${i}`, depth: 1 }))];
    const max = SLICE_MAX_URLS + 20;
    const slices = await f.init(seeds, max, now);
    expect(slices.map((s) => s.slice_id)).toEqual(['start#0000000000', `start#${String(SLICE_MAX_URLS).padStart(10, '0')}`]);
    expect(slices.map((s) => s.urls.length)).toEqual([SLICE_MAX_URLS, 20]);
    expect(slices.flatMap((s) => s.urls.map((u) => u.url))).toEqual(seeds.slice(0, max).map((s) => s.url));
    expect(await f.init(seeds, max, now)).toEqual(slices);
    expect((await f.counters())!.admitted).toBe(max);
  });

  it('admits each URL once across racing workers, with unique ordinals', async () => {
    const f = frontier();
    await f.init('https://site.test/', 1000, now);
    const urls = Array.from({ length: 40 }, (_, i) => `https://site.test/${i}`);
    const results = await Promise.all([0, 1, 2, 3].map((w) => f.admit(cands([...urls].sort(() => (w % 2 ? 1 : -1)), w + 100), `start#w${w}`)));
    const all = results.flatMap((r) => r.urls);
    expect(all.map((u) => u.url).sort()).toEqual([...urls].sort());
    expect(new Set(all.map((u) => u.ord)).size).toBe(40);
    // Ordinals without gaps: the budget is taken only for claims won.
    expect(all.map((u) => u.ord).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await f.counters())!.admitted).toBe(41);
  });

  it('never admits more than max_pages in total, whoever asks', async () => {
    const f = frontier();
    await f.init('https://site.test/', 10, now);
    const batches = [0, 1, 2].map((b) => Array.from({ length: 8 }, (_, i) => `https://site.test/${b}/${i}`));
    const admitted = (await Promise.all(batches.map((b, i) => f.admit(cands(b, 100 + i), `start#b${i}`)))).flatMap((r) => r.urls);
    expect(admitted).toHaveLength(9);
    expect((await f.counters())!.admitted).toBe(10);
    expect((await f.admit(cands(['https://site.test/late'], 7), 'start#late')).urls).toEqual([]);
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

  /** A frontier of the same crawl whose worker dies right after `step` (its admission is left unsettled). */
  const dyingAfter = (f: CrawlFrontier, step: SliceStep) =>
    new CrawlFrontier(table, 'ten_test', f.runId, (s) => {
      if (s === step) throw new Error(`killed after ${step}`);
    });

  for (const step of ['ledger', 'claims', 'reserve'] as const) {
    it(`an admission cut short after "${step}" is finished by the slice's retake from its ledger: same URLs, budget taken once`, async () => {
      const f = frontier();
      const [first] = await f.init('https://site.test/p/0', 100, now);
      const children = links(2, 60); // three distinct pages
      await expect(dyingAfter(f, step).admit(cands(children, 0), first!.slice_id)).rejects.toThrow('killed');
      const [l] = await f.unsettled(first!.slice_id, []);
      expect(l!.urls.map((u) => u.url).sort()).toEqual([...children].sort());
      expect((await f.counters())!.admitted).toBe(4);
      expect(new Set(l!.urls.map((u) => u.ord)).size).toBe(3);
      // Settled: nothing left to finish, and a second look takes no budget.
      await f.writeBatch([f.sliceRecord(ownId(first!.slice_id), l!.urls).item]);
      await f.settle([l!.ledger]);
      expect(await f.unsettled(first!.slice_id, [])).toEqual([]);
      expect((await f.admit(cands(children, 9), 'start#other')).urls).toEqual([]);
      expect((await f.counters())!.admitted).toBe(4);
    });
  }

  it("one admission gathers several batches' links (one ledger, appended to); an append after a retake settled it stops the delivery", async () => {
    const f = frontier();
    const [first] = await f.init('https://site.test/p/0', 100, now);
    const from = first!.slice_id;
    let open = await f.stage(null, cands(links(2, 60), 0), from);
    const ledger = open!.ledger;
    open = await f.stage(open, cands([...links(3, 60), ...links(2, 60)], 0), from);
    expect(open!.ledger).toBe(ledger);
    const staged = [...new Set([...links(2, 60), ...links(3, 60)])];
    expect(open!.urls.map((u) => u.url)).toEqual(staged);
    // A crash before the close: the retake finds every staged URL in the one ledger.
    const [l] = await f.unsettled(from, []);
    expect(l).toMatchObject({ ledger });
    expect(l!.urls.map((u) => u.url).sort()).toEqual([...staged].sort());
    await f.recordLedgerSlices(ownId(from), l!.ledger, l!.urls);
    await f.settle([l!.ledger]);
    expect((await f.counters())!.admitted).toBe(1 + staged.length);
    // The first delivery wakes and appends to the settled ledger: fenced, nothing claimed.
    await expect(f.stage(open, cands(['https://site.test/late'], 0), from)).rejects.toBeInstanceOf(SliceFencedError);
    expect((await f.admit(cands(['https://site.test/late'], 0), 'start#other')).urls).toHaveLength(1);
  });

  it('a retake keeps the ordinals of a committed admission and writes its slices once, however far the first delivery got', async () => {
    const f = frontier();
    const [first] = await f.init('https://site.test/p/0', 100, now);
    const from = ownId(first!.slice_id);
    const children = links(2, 60);
    const adm = await f.admit(cands(children, 0), first!.slice_id);
    expect(adm.urls).toHaveLength(3);
    // The batch write was cut short after the slice carrying the admission was written.
    const written = await f.recordLedgerSlices(from, adm.ledger!, adm.urls);
    const [l] = await f.unsettled(first!.slice_id, written);
    // Adopted: the same URLs with the same ordinals, written as the same slice (once).
    expect(l).toMatchObject({ ledger: adm.ledger, urls: adm.urls, byLedger: true });
    expect(await f.recordLedgerSlices(from, l!.ledger, l!.urls)).toEqual(written);
    expect(await f.sentBy(first!.slice_id)).toEqual(written);
    expect((await f.counters())!.admitted).toBe(4);
  });

  it('a ledger a version before commits left (a reservation, no commit) keeps the ordinals its torn batch put in a slice record', async () => {
    const f = frontier();
    const [first] = await f.init('https://site.test/p/0', 100, now);
    const adm = await f.admit(cands(links(2, 60), 0), first!.slice_id);
    // That version reserved without committing, and wrote slices of random ids.
    const key = { pk: `TEN#ten_test#CRAWL#${f.runId}`, sk: 'STATE' };
    const com = Object.keys((await table.get(key))!).filter((k) => k.startsWith('com_'));
    await table.update(key, { remove: com });
    const torn = await f.openSlice(ownId(first!.slice_id), [adm.urls[1]!]);
    const [l] = await f.unsettled(first!.slice_id, [torn]);
    // The two URLs not carried, with the ordinals they were given.
    expect(l).toMatchObject({ urls: [adm.urls[0], adm.urls[2]], byLedger: false });
    expect((await f.counters())!.admitted).toBe(4);
  });

  it('max_pages stays exact when a worker dies holding the last of the budget: its retake gives the reservation back and numbers afresh', async () => {
    const f = frontier();
    const [first] = await f.init('https://site.test/p/0', 4, now);
    // Reserve the last 3 ordinals and die: the budget (4) looks spent to everyone else.
    await expect(dyingAfter(f, 'reserve').admit(cands(links(2, 60), 0), first!.slice_id)).rejects.toThrow('killed');
    expect((await f.counters())!.admitted).toBe(4);
    expect((await f.admit(cands(['https://site.test/x'], 0), 'start#x')).urls).toEqual([]);
    // The retake: none of its ordinals reached a slice record, so they are given back (once) and taken again.
    const [l] = await f.unsettled(first!.slice_id, []);
    expect(l!.urls).toHaveLength(3);
    expect((await f.counters())!.admitted).toBe(4);
    // Looked at again before settling (a second crash): numbered afresh means committed, so the
    // same ordinals come back, to be written as the same slices.
    const recorded = await f.recordLedgerSlices(ownId(first!.slice_id), l!.ledger, l!.urls.slice(0, 1));
    const [again] = await f.unsettled(first!.slice_id, recorded);
    expect(again).toMatchObject({ urls: l!.urls, byLedger: true });
    expect((await f.counters())!.admitted).toBe(4);
  });

  it('a retaken slice counts the pages an earlier delivery recorded but had not counted, once', async () => {
    const f = frontier();
    const [first] = await f.init('https://site.test/p/0', 100, now);
    const kids = (await f.admit(cands(links(2, 60), 0), first!.slice_id)).urls;
    const s = await f.openSlice(ownId(first!.slice_id), kids);
    // The first delivery pushed 1 page to the counters, then died.
    await f.addCounts(s.slice_id, { done: 1 }, { done: 1, failed: 0, skipped: 0 });
    expect(await f.counted(s.slice_id)).toEqual({ done: 1, failed: 0, skipped: 0 });
    expect(await f.finishSlice(s.slice_id, now, { done: 2 }, { done: 3, failed: 0, skipped: 0 })).toMatchObject({ counters: { done: 3 } });
    // A late finish by a delivery whose slice is gone adds nothing.
    expect(await f.finishSlice(s.slice_id, now, { done: 2 }, { done: 3, failed: 0, skipped: 0 })).toMatchObject({ counters: { done: 3 } });
  });

  it('once the budget is known to be spent, an admission writes nothing (no ledger, no claim)', async () => {
    const f = frontier();
    await f.init('https://site.test/p/0', 1, now);
    const other = new CrawlFrontier(table, 'ten_test', f.runId);
    other.noteCounters((await f.counters())!);
    expect(await other.admit(cands(['https://site.test/new-1', 'https://site.test/new-2'], 0), 'start#0000000000')).toEqual({ urls: [], ledger: null });
    // Nothing was claimed: the start URL's claim is the only one.
    expect((await table.query({ pk: `TEN#ten_test#CRAWL#${f.runId}`, skBeginsWith: 'URL#', consistent: true })).items).toHaveLength(1);
  });

  it('admits in chunks bounded in URLs and bytes, leaving out URLs over 2,048 characters (every record stays far below 400 KB)', async () => {
    const many = Array.from({ length: 1200 }, (_, i) => ({ url: `https://site.test/${i}` }));
    expect(admissionChunks(many).map((c) => c.length)).toEqual([500, 500, 200]);
    const long = Array.from({ length: 300 }, (_, i) => ({ url: `https://site.test/${i}/${'x'.repeat(2000)}` }));
    const chunks = admissionChunks(long);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.reduce((n, u) => n + u.url.length, 0)).toBeLessThanOrEqual(200 * 1024);
    expect(admissionChunks([{ url: `https://site.test/${'y'.repeat(MAX_URL_LENGTH)}` }])).toEqual([]);
    const f = frontier();
    await f.init('https://site.test/p/0', 100, now);
    expect((await f.admit(cands([`https://site.test/${'z'.repeat(MAX_URL_LENGTH)}`], 0), 'start#0000000000')).urls).toEqual([]);
  });
});
