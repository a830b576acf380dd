import type { Engine } from '../engine/pipeline.js';
import { normalizeUrl, sameSite } from '../scrapers/normalize-url.js';
import { urlFilter } from '../scrapers/url-patterns.js';
import { crawlItem, crawlPageOptions, type SiteCrawlInput } from '../scrapers/site-crawl.js';
import { sitemapSeeds } from '../discovery/crawl-seeds.js';
import type { ScrapeItem } from '../scrapers/types.js';
import { admissionChunks, admissionFits, INLINE_ITEM_MAX_BYTES, ownId, type Candidate, type OpenAdmission, type CrawlFrontier, type FaultHook, type FrontierCounters, type FrontierUrl, type PageState, type SliceRef } from './frontier.js';
import type { Item } from '../../ports/table.js';
import { SLICE_MAX_URLS } from '../queue-messages.js';
import type { TrackedBatch, TrackedPage } from '../changes/change-tracker.js';
import { structuredOf } from '../changes/structured-data.js';
import { unavailablePage } from '../changes/unavailable-page.js';

/**
 * URLs per queue message, as many as a message may carry. A slice's fixed costs (its lease, its
 * finish, the run's usage and progress, the raw log, a queue message) are then spread over 50
 * pages, and its tail (the last pages of a slice, when fewer than `concurrency` are left in
 * flight) comes a fifth as often as with 10: on the 10,000-page bench, 1.3 table calls a page
 * instead of 2.1, and a third faster. A slice still ends well inside one invocation: it hands back
 * what is left when time runs low.
 */
export const SLICE_SIZE = SLICE_MAX_URLS;

/** What processing a slice needs from the worker around it. */
export interface SliceEnv {
  frontier: CrawlFrontier;
  engine: Engine;
  input: SiteCrawlInput;
  /** Send a recorded slice to the runs queue, optionally delayed. */
  send(slice: SliceRef, opts?: { delaySeconds?: number }): Promise<void>;
  /** Store an item too big for the table; returns its blob key. */
  putBlob(ord: number, item: ScrapeItem): Promise<string>;
  /**
   * Store a batch's items together, in one blob (a JSON array); returns its key. The page records
   * then hold only where their item is (about 200 bytes: one write request unit each, instead of
   * one per KB of item). Without it, items are kept in their page records.
   */
  putItems?(firstOrd: number, items: ScrapeItem[]): Promise<string>;
  now(): Date;
  /** Milliseconds this invocation may still spend; below `reserveMs` no new page is started. */
  remainingMs(): number;
  /** A stop requested by the run (cancelled, max_runtime, quota, challenge): no new page starts. */
  shouldStop(): boolean;
  /** Who holds page leases (the invocation's id). */
  holder: string;
  /**
   * Called once no page of the slice is in flight and none will start (its tail, the last batch
   * write and the finish, is only stores' work): the local queue lets the next slice start then.
   */
  pagesDone?: () => void;
  /**
   * The slice's lease. Short, and renewed every third of it while the slice is being worked on, so
   * a slow slice keeps it while a worker killed mid-slice (kill -9, a Lambda cut off) holds its
   * pages up for at most one lease before a redelivery takes them over.
   */
  leaseMs?: number;
  reserveMs?: number;
  /** Request stats of the slice, added to the crawl's counters when it finishes (read after the last page). */
  stats?: () => Record<string, number>;
  /** Fault injection (tests): called after each step of the slice; throwing there simulates a crash. */
  fault?: FaultHook;
  /** Awaited before each page starts and each batch is written: the crawl gives way to other tenants' interactive work (core/limits/foreground.ts). */
  beforePage?: () => Promise<void>;
  /** Change tracking (formats includes "changes"): each batch's pages compared with their baselines, read and written with the batch. */
  changes?: { trackBatch(pages: TrackedPage[]): Promise<TrackedBatch> };
  /**
   * Called with the crawl's counters once this slice has added the pages it stored so far to them
   * (after a batch write, at most every {@link PROGRESS_PUSH_MS} of `now()`), so the run's progress
   * counts what is stored while a long slice is still working, not only what finished slices stored.
   */
  onProgress?: (counters: FrontierCounters) => Promise<void>;
}

/** A finished page as change tracking sees it: a fetched item, or a page that could not be read. */
function trackedOf(f: { u: FrontierUrl; outcome: { item?: ScrapeItem } }, now: Date): TrackedPage {
  const item = f.outcome.item;
  if (!item) return unavailablePage(f.u.url, now.toISOString());
  return { url: f.u.url, fetched_at: item.fetched_at, status_code: item.status_code, markdown: String(item.data.markdown ?? ''), structured: structuredOf(item.data as { json?: unknown }) };
}

export interface SliceOutcome {
  /** Pages of this slice fetched by this invocation. */
  fetched: number;
  /** URLs handed back to the queue because time ran low or the run stopped them. */
  deferred: number;
  /** True for exactly one invocation per crawl: the one whose finished slice ended it. */
  crawlFinished: boolean;
  /** The crawl's counters right after this slice's counts were added; null when the slice was not worked (finished before, or leased by another worker). */
  counters: FrontierCounters | null;
}

/** Queue `urls` as slices of {@link SLICE_SIZE} sent by slice `from`, each recorded before it is sent. */
export async function sendSlices(frontier: CrawlFrontier, from: string, urls: FrontierUrl[], send: SliceEnv['send'], opts?: { delaySeconds?: number }): Promise<void> {
  for (let i = 0; i < urls.length; i += SLICE_SIZE) await send(await frontier.openSlice(ownId(from), urls.slice(i, i + SLICE_SIZE)), opts);
}

/** Default slice lease; renewed while the slice is in progress (see {@link SliceEnv.leaseMs}). */
export const LEASE_MS = 15_000;

/** SQS delays a message by at most 15 minutes. */
const MAX_DELAY_S = 900;

/**
 * Pages whose outcomes are written together (group commit): a slice writes its pages' items, the
 * pages they link to and the slices carrying those in a few batch calls rather than a call per
 * page. A page keeps its place among the slice's `concurrency` pages until its outcome is written,
 * so a worker killed at any moment has at most `concurrency` pages per slice fetched or being
 * fetched and not recorded: the retake fetches again at most what was in flight (issue 37: with a
 * buffer written every 25 pages or every second, and the progress push on the write path, 87 pages
 * were fetched twice with 64 in flight). One write at a time; the next starts as soon as none is
 * in progress and no page of the slice is being fetched (every place waits in the buffer), or the
 * oldest has waited {@link FLUSH_WAIT_MS}. Batches are then at most `concurrency` pages (and at
 * most this many); pages keep being fetched while a batch is written. (Flushing at half the places
 * made batches of 2 pages at 4 a slice: an S3 PUT for every 1.85 pages, $0.27 of the crawl's $0.63
 * per 100,000 pages; waiting for every place, 3.3 pages a batch and $0.15.)
 */
export const FLUSH_PAGES = 25;
/** Longest a finished page waits for more to share its write while others are still fetching. */
const FLUSH_WAIT_MS = 100;
/** A slice adds what it stored to the crawl's counters at most this often before it finishes (one table update). */
export const PROGRESS_PUSH_MS = 1_000;
/** Longest an admission stays open gathering the links of a slice's batches before it is closed. */
const ADMISSION_OPEN_MS = 500;
/** Time the start page's slice may spend reading sitemaps at most. */
const SITEMAP_BUDGET_MS = 60_000;

type Outcome = { state: Exclude<PageState, 'queued'>; item?: ScrapeItem; error?: string };
type Finished = { u: FrontierUrl; outcome: Outcome; links: Candidate[] };

/**
 * Work one slice of a distributed site crawl: take the slice's lease, fetch each URL still
 * queued through the run's engine (governance, robots, politeness), admit same-site links within
 * max_depth and the include/exclude patterns, and write the pages' outcomes with the new pages and
 * the slices that carry them, a few pages at a time. Every step can be cut short by a crash: the
 * slice's message comes back once its lease ends, and the retake finishes the dead delivery's
 * unsettled admissions from their ledgers (CrawlFrontier.unsettled), re-sends what it recorded,
 * and skips (and counts, once) the pages it recorded. When time runs low the rest of the slice
 * goes back to the queue as a new slice.
 */
export async function processSlice(env: SliceEnv, slice: SliceRef & { redelivered?: boolean }, startUrl: string): Promise<SliceOutcome> {
  const { frontier } = env;
  const leaseMs = env.leaseMs ?? LEASE_MS;
  const lease = await frontier.leaseSlice(slice.slice_id, env.holder, leaseMs, env.now());
  if (lease.state === 'gone') return { fetched: 0, deferred: 0, crawlFinished: false, counters: null };
  if (lease.state === 'busy') {
    // Another delivery is working it (a duplicate message, or a worker that may have died): look
    // again when its lease ends, so the slice is neither worked twice at once nor lost.
    const wait = lease.until - env.now().getTime();
    await env.send(slice, { delaySeconds: Math.min(MAX_DELAY_S, Math.max(1, Math.ceil(wait / 1000) + 1)) });
    return { fetched: 0, deferred: slice.urls.length, crawlFinished: false, counters: null };
  }
  const renew = setInterval(() => {
    frontier.renewSlice(slice.slice_id, env.holder, leaseMs, env.now()).catch(() => undefined);
  }, Math.max(1000, Math.floor(leaseMs / 3)));
  try {
    return await work(env, slice, startUrl, lease.retaken);
  } catch (err) {
    // Let the queue's retry take the slice at once (a dead worker cannot: its lease runs out).
    await frontier.releaseSlice(slice.slice_id, env.holder).catch(() => undefined);
    throw err;
  } finally {
    clearInterval(renew);
  }
}

async function work(env: SliceEnv, slice: SliceRef, startUrl: string, retaken: boolean): Promise<SliceOutcome> {
  const { frontier, engine, input } = env;
  const fault = env.fault;
  let urls = slice.urls;
  // Pages this invocation recorded, by outcome, plus (on a retake) those earlier deliveries
  // recorded: every recorded page of the slice is counted once, when it finishes or by a
  // progress push.
  const recorded = { done: 0, failed: 0, skipped: 0 };
  // The part of `recorded` already added to the counters (by a progress push, or an earlier delivery).
  let pushed = { ...recorded };
  if (retaken) {
    // The dead delivery may have died anywhere. First its unsettled admissions (claims and
    // ordinals for links it found, not yet in a recorded slice) are finished: their URLs get
    // slices, recorded before anything is sent. Then every slice it recorded is sent again (it may
    // have died between recording and sending; a duplicate message finds its slice leased or
    // gone and is harmless), and the pages it recorded are skipped and counted if it had not.
    // The fence first: an earlier delivery that stalled without dying can no longer number a URL
    // or count a page once this one reads what it left. Then the pages it recorded, before its
    // ledgers: a page recorded after this read is fetched again here, and one recorded before it
    // had its links written to a ledger earlier still, which the read of the ledgers below finds.
    await frontier.fence(slice.slice_id, env.holder, env.now());
    const states = await frontier.states(urls.map((u) => u.ord));
    let orphans = await frontier.sentBy(slice.slice_id);
    const recovered: SliceRef[] = [];
    for (const l of await frontier.unsettled(slice.slice_id, orphans, env.holder)) {
      if (l.byLedger) recovered.push(...(await frontier.recordLedgerSlices(ownId(slice.slice_id), l.ledger, l.urls, { retake: true })));
      else {
        const slices = [];
        for (let i = 0; i < l.urls.length; i += SLICE_SIZE) slices.push(frontier.sliceRecord(ownId(slice.slice_id), l.urls.slice(i, i + SLICE_SIZE)));
        await frontier.writeBatch(slices.map((x) => x.item));
        recovered.push(...slices.map((x) => x.ref));
      }
      await frontier.settle([l.ledger]);
    }
    orphans = [...orphans, ...recovered];
    // Pages handed on to a slice of their own (a deferral) are that slice's, not this one's.
    const handedOn = new Set(orphans.flatMap((o) => o.urls.map((u) => u.ord)));
    for (const orphan of orphans) await env.send(orphan);
    for (const u of urls) {
      const st = states.get(u.ord);
      if (st && st !== 'queued' && !handedOn.has(u.ord)) recorded[st]++;
    }
    pushed = await frontier.counted(slice.slice_id);
    urls = urls.filter((u) => !states.has(u.ord) && !handedOn.has(u.ord));
  }
  const allowed = urlFilter(input.include, input.exclude);
  const reserveMs = env.reserveMs ?? Math.max(30_000, (input.timeout_ms ?? 30_000) + 15_000);
  let fetched = 0;
  let deferred = 0;
  let pushedAt = env.now().getTime();
  const concurrency = Math.max(1, input.concurrency);
  const pending = [...urls];

  // Outcomes waiting to be written, the write in progress (one at a time, in order), and the pages
  // started whose outcome is not written yet (fetching, or finished and waiting): at most `concurrency`.
  const buffer: Finished[] = [];
  let writing = false;
  let writes: Promise<void> = Promise.resolve();
  let unrecorded = 0;
  let fetching = 0;
  let flushTimer: NodeJS.Timeout | undefined;
  let failure: unknown;
  // The progress pushes, one at a time, off the write path (a write never waits for one).
  let progressing: Promise<void> = Promise.resolve();
  // Wakes the page loop when a write gave places back.
  let wake: (() => void) | null = null;
  const placesFreed = () => new Promise<void>((r) => (wake = r));
  const flush = (force = false) => {
    if (writing || failure || !buffer.length) return;
    if (!force && fetching > 0 && buffer.length < concurrency) {
      // Others are still being fetched: give them a moment to share this write.
      flushTimer ??= setTimeout(() => {
        flushTimer = undefined;
        flush(true);
      }, FLUSH_WAIT_MS);
      return;
    }
    clearTimeout(flushTimer);
    flushTimer = undefined;
    const batch = buffer.splice(0, FLUSH_PAGES);
    writing = true;
    writes = write(batch)
      .then(() => {
        unrecorded -= batch.length;
      })
      .catch((err) => {
        failure ??= err;
      })
      .finally(() => {
        writing = false;
        flush();
        const w = wake;
        wake = null;
        w?.();
      });
  };

  // The admission the batches' links are staged in (CrawlFrontier.stage), and when it opened.
  let open: OpenAdmission | null = null;
  let openedAt = 0;
  /** Close the open admission: claims, ordinals, the slices carrying them, the ledger's deletion, then the sends. */
  const closeAdmission = async () => {
    const o = open;
    if (!o) return;
    open = null;
    const { urls, ledger } = await frontier.close(o, slice.slice_id, env.holder);
    const slices = urls.length ? await frontier.recordLedgerSlices(ownId(slice.slice_id), o.ledger, urls) : [];
    await frontier.settle([ledger]);
    for (const x of slices) await env.send(x);
    if (slices.length) await fault?.('sent');
  };
  /**
   * Write one batch: stage its links in the slice's open admission (the admission's ledger first,
   * then its URLs appended to it) while its items are stored, then write its pages' outcomes (one
   * batch write). The open admission is closed (its count on the crawl's state, claims, ordinals,
   * the slices carrying them, the ledger's deletion, then the sends) once it holds a slice's worth
   * of URLs or has been open {@link ADMISSION_OPEN_MS}, and at the slice's end. A crash in the
   * middle can leave outcomes whose links are only in a ledger: the retake of this slice finishes
   * that ledger (the same claims and slices, written where missing) before it sends anything, so
   * nothing is lost and nothing is numbered twice.
   */
  const write = async (batch: Finished[]) => {
    // The batch's claims and records are the crawl's biggest burst of work: it waits too.
    await env.beforePage?.();
    const candidates = batch.flatMap((f) => f.links);
    const records: Item[] = [];
    // Staging the links and storing the outcomes do not depend on each other: both at once (a
    // slice's last batch is on the path to its finish, when its invocation has no page in flight).
    const staging = async () => {
      for (const chunk of admissionChunks(candidates)) {
        if (!admissionFits(open, chunk)) await closeAdmission();
        const before = open;
        open = await frontier.stage(open, chunk, slice.slice_id);
        if (open && !before) openedAt = Date.now();
      }
    };
    const storing = async () => {
      // Change tracking: one baseline read for the batch; baselines and change records go in its batch write.
      const tracked = env.changes ? await env.changes.trackBatch(batch.map((f) => trackedOf(f, env.now()))) : undefined;
      if (tracked) {
        batch.forEach((f, i) => {
          if (f.outcome.item) f.outcome.item.data.change = tracked.views[i];
        });
        records.push(...tracked.items);
      }
      const grouped = env.putItems ? batch.filter((f) => f.outcome.item) : [];
      const groupKey = grouped.length ? await env.putItems!(grouped[0]!.u.ord, grouped.map((f) => f.outcome.item!)) : undefined;
      for (const f of batch) {
        const o = f.outcome;
        const at = groupKey ? grouped.indexOf(f) : -1;
        if (at >= 0) records.push(frontier.outcomeRecord(f.u, { state: o.state, item_blob: groupKey, item_at: at }, env.now()));
        else if (o.item && Buffer.byteLength(JSON.stringify(o.item)) > INLINE_ITEM_MAX_BYTES) records.push(frontier.outcomeRecord(f.u, { state: o.state, item_blob: await env.putBlob(f.u.ord, o.item) }, env.now()));
        else records.push(frontier.outcomeRecord(f.u, o, env.now()));
      }
      return tracked;
    };
    // Both settle before a failure is thrown, so neither is left running behind the crash.
    const [staged, stored] = await Promise.allSettled([staging(), storing()]);
    if (staged.status === 'rejected') throw staged.reason;
    if (stored.status === 'rejected') throw stored.reason;
    const tracked = stored.value;
    // The pages' outcomes, once what they found is in the open admission's ledger. The admission
    // is closed (its URLs claimed, numbered and put in slices) once it holds a slice's worth of
    // URLs or has been open ADMISSION_OPEN_MS, and when the slice ends: page records stay small
    // batches (a page keeps its place until its outcome is written), slices and admissions do not.
    await frontier.writeBatch(records);
    await tracked?.announce();
    for (const f of batch) recorded[f.outcome.state]++;
    await fault?.('records');
    if (open && (open.urls.length >= SLICE_SIZE || Date.now() - openedAt >= ADMISSION_OPEN_MS)) await closeAdmission();
    if (env.onProgress && env.now().getTime() - pushedAt >= PROGRESS_PUSH_MS) {
      pushedAt = env.now().getTime();
      const onProgress = env.onProgress;
      progressing = progressing
        .then(async () => {
          const now = { ...recorded };
          const counters = await frontier.addCounts(slice.slice_id, { done: now.done - pushed.done, failed: now.failed - pushed.failed, skipped: now.skipped - pushed.skipped }, now, env.holder);
          pushed = now;
          await onProgress(counters);
        })
        .catch((err) => {
          failure ??= err;
        });
    }
  };

  const finish = (f: Finished) => {
    fetching--;
    buffer.push(f);
    flush();
  };

  const one = async (u: FrontierUrl) => {
    let page;
    try {
      page = await engine.scrapePage(u.url, crawlPageOptions(input));
    } catch (err) {
      // The start page (the first seed, ordinal 0) failing fails the crawl; any other page, other
      // seeds included, is recorded as failed and skipped.
      if (u.ord === 0) throw err;
      return finish({ u, outcome: { state: 'failed', error: (err as Error).message }, links: [] });
    }
    fetched++;
    await fault?.('fetch');
    if (page.skipped) return finish({ u, outcome: { state: 'skipped' }, links: [] });
    if (page.blocked) return finish({ u, outcome: { state: 'failed', error: `challenge: ${page.blocked.kind}` }, links: [] });
    const item = crawlItem(page, u.depth);
    if (u.via) item.data.via = u.via;
    const links: Candidate[] = [];
    if (u.depth < input.max_depth && input.sitemap !== 'only') {
      for (const link of page.links ?? []) {
        const n = normalizeUrl(link);
        if (n && sameSite(n, startUrl) && allowed(n)) links.push({ url: n, depth: u.depth + 1, parent: u.ord });
      }
    }
    // The start page also seeds the crawl from the site's sitemaps (after its own links, so a page
    // it links to is not marked as found through a sitemap). Discovery reads them through this
    // slice's engine (governed, logged, counted in the run's requests) and never writes the
    // frontier: its URLs are admitted with the page's links, depth 1, `via: "sitemap"`. What a
    // dead delivery of the start page admitted is finished from its ledgers by the retake.
    if (u.depth === 0 && (input.sitemap ?? 'skip') !== 'skip' && input.max_depth >= 1) {
      const linked = new Set(links.map((l) => l.url));
      const found = await sitemapSeeds(engine, u.url, input, {
        maxUrls: input.max_pages,
        deadline: Date.now() + Math.max(1_000, Math.min(SITEMAP_BUDGET_MS, env.remainingMs() - reserveMs)),
        shouldStop: env.shouldStop,
      });
      for (const d of found.urls) if (d.url !== u.url && !linked.has(d.url)) links.push({ url: d.url, depth: 1, parent: u.ord, via: 'sitemap' });
    }
    finish({ u, outcome: { state: 'done', item }, links });
  };

  const active = new Set<Promise<void>>();
  while (pending.length || active.size) {
    while (!failure && pending.length && unrecorded < concurrency) {
      await env.beforePage?.();
      if (failure || !pending.length) break;
      if (env.remainingMs() < reserveMs || env.shouldStop()) {
        // Hand the rest back: a new slice, recorded before it is sent, picked up by any worker.
        deferred = pending.length;
        if (env.shouldStop()) pending.splice(0);
        else {
          // Not when a retake has fenced this delivery: the retake works those pages.
          await frontier.assertHolds(slice.slice_id, env.holder);
          await sendSlices(frontier, slice.slice_id, pending.splice(0), env.send);
        }
        break;
      }
      const u = pending.shift()!;
      unrecorded++;
      fetching++;
      const task: Promise<void> = one(u)
        .catch((err) => {
          failure ??= err;
        })
        .finally(() => active.delete(task));
      active.add(task);
    }
    if (active.size) {
      await Promise.race([...active, placesFreed()]);
      continue;
    }
    // Nothing is being fetched: every place is taken by pages waiting for their write (wait for
    // it to end), or there is nothing more to start.
    if (failure || !pending.length || !writing) break;
    await placesFreed();
  }
  for (;;) {
    flush(true);
    if (!writing) break;
    await writes;
  }
  clearTimeout(flushTimer);
  // What the last batches found, admitted (a failure leaves the ledger to the retake).
  if (!failure) await closeAdmission().catch((err) => void (failure ??= err));
  await progressing;
  // Nothing of this slice is in flight or unrecorded now: the local queue may start the next one.
  env.pagesDone?.();
  if (failure) throw failure;
  const stats = { done: recorded.done - pushed.done, failed: recorded.failed - pushed.failed, skipped: recorded.skipped - pushed.skipped, ...env.stats?.() };
  const { finished, counters } = await frontier.finishSlice(slice.slice_id, env.now(), stats, recorded, env.holder);
  return { fetched, deferred, crawlFinished: finished, counters };
}
