import type { Engine } from '../engine/pipeline.js';
import { normalizeUrl, sameSite } from '../scrapers/normalize-url.js';
import { urlFilter } from '../scrapers/url-patterns.js';
import { crawlItem, crawlPageOptions, type SiteCrawlInput } from '../scrapers/site-crawl.js';
import type { ScrapeItem } from '../scrapers/types.js';
import { sitemapSeeds } from '../discovery/crawl-seeds.js';
import { INLINE_ITEM_MAX_BYTES, ownId, type CrawlFrontier, type FrontierCounters, type FrontierUrl, type SliceRef } from './frontier.js';

/** URLs per queue message: small enough that a slice finishes well inside one invocation. */
export const SLICE_SIZE = 10;

/** What processing a slice needs from the worker around it. */
export interface SliceEnv {
  frontier: CrawlFrontier;
  engine: Engine;
  input: SiteCrawlInput;
  /** Send a recorded slice to the runs queue, optionally delayed. */
  send(slice: SliceRef, opts?: { delaySeconds?: number }): Promise<void>;
  /** Store an item too big for the table; returns its blob key. */
  putBlob(ord: number, item: ScrapeItem): Promise<string>;
  now(): Date;
  /** Milliseconds this invocation may still spend; below `reserveMs` no new page is started. */
  remainingMs(): number;
  /** A stop requested by the run (cancelled, max_runtime, quota, challenge): no new page starts. */
  shouldStop(): boolean;
  /** Who holds page leases (the invocation's id). */
  holder: string;
  /**
   * A page's lease. Short, and renewed every third of it while the page is being worked on, so a
   * page slower than the lease keeps it while a worker killed mid-page (kill -9, a Lambda cut
   * off) holds its pages up for at most one lease before a redelivery takes them.
   */
  leaseMs?: number;
  reserveMs?: number;
  /** Request stats of the slice, added to the crawl's counters when it finishes (read after the last page). */
  stats?: () => Record<string, number>;
}

export interface SliceOutcome {
  /** Pages of this slice fetched by this invocation. */
  fetched: number;
  /** URLs handed back to the queue because time ran low or the run stopped them. */
  deferred: number;
  /** True for exactly one invocation per crawl: the one whose finished slice ended it. */
  crawlFinished: boolean;
  /** The crawl's counters right after this slice's counts were added. */
  counters: FrontierCounters;
}

/** Queue `urls` as slices of {@link SLICE_SIZE} sent by slice `from`, each recorded before it is sent. */
export async function sendSlices(frontier: CrawlFrontier, from: string, urls: FrontierUrl[], send: SliceEnv['send'], opts?: { delaySeconds?: number }): Promise<void> {
  for (let i = 0; i < urls.length; i += SLICE_SIZE) await send(await frontier.openSlice(ownId(from), urls.slice(i, i + SLICE_SIZE)), opts);
}

/** Sitemap seeds admitted per frontier call. */
const SEED_CHUNK = 500;
/** Time the start page's slice may spend reading sitemaps at most. */
const SITEMAP_BUDGET_MS = 60_000;

/**
 * Admit the site's sitemap URLs (depth 1, `via: "sitemap"`) as children of the start page, in
 * chunks, and queue them. Discovery reads the sitemaps through the slice's engine, so each fetch
 * is governed, logged and counted in the run's requests; it never touches the frontier. A retaken
 * start page reads them again and picks up its own earlier claims (same parent), losing none.
 */
async function seedFromSitemaps(env: SliceEnv, sliceId: string, start: FrontierUrl, retaken: boolean, linked: Set<string>, reserveMs: number): Promise<void> {
  const found = await sitemapSeeds(env.engine, start.url, env.input, {
    maxUrls: env.input.max_pages,
    deadline: Date.now() + Math.max(1_000, Math.min(SITEMAP_BUDGET_MS, env.remainingMs() - reserveMs)),
    shouldStop: env.shouldStop,
  });
  const seeds = found.urls.map((d) => d.url).filter((u) => u !== start.url && !linked.has(u));
  for (let i = 0; i < seeds.length; i += SEED_CHUNK) {
    const admitted = await env.frontier.admit(seeds.slice(i, i + SEED_CHUNK).map((url) => ({ url, depth: 1 })), start.ord, { retake: retaken });
    await sendSlices(env.frontier, sliceId, admitted.map((a) => ({ ...a, via: 'sitemap' as const })), env.send);
  }
}

/** Default page lease; renewed while the page is in progress (see {@link SliceEnv.leaseMs}). */
export const LEASE_MS = 15_000;

/** SQS delays a message by at most 15 minutes. */
const MAX_DELAY_S = 900;

/**
 * Work one slice of a distributed site crawl: for each URL still queued, take its lease, fetch it
 * through the run's engine (governance, robots, politeness), store its item with the page record,
 * admit its same-site links within max_depth and the include/exclude patterns, and queue them.
 * The page is recorded only after its links are queued, so a worker killed at any point leaves
 * the page queued (its lease expires) and a redelivery finishes it without losing or duplicating
 * anything. When time runs low the rest of the slice goes back to the queue as a new slice.
 */
export async function processSlice(env: SliceEnv, slice: SliceRef & { redelivered?: boolean }, startUrl: string): Promise<SliceOutcome> {
  const { frontier, engine, input } = env;
  const urls = slice.urls;
  // An earlier delivery of this slice may have died between recording a slice and sending it:
  // send every slice it recorded again (a duplicate message finds its pages done and is harmless).
  if (slice.redelivered) for (const orphan of await frontier.sentBy(slice.slice_id)) await env.send(orphan);
  const allowed = urlFilter(input.include, input.exclude);
  const leaseMs = env.leaseMs ?? LEASE_MS;
  const reserveMs = env.reserveMs ?? Math.max(30_000, (input.timeout_ms ?? 30_000) + 15_000);
  let fetched = 0;
  let deferred = 0;
  // Pages this invocation recorded, by outcome: added to the counters once, when the slice finishes.
  const recorded = { done: 0, failed: 0, skipped: 0 };
  const record = async (ord: number, outcome: Parameters<CrawlFrontier['record']>[1]) => {
    if (await frontier.record(ord, outcome, env.now())) recorded[outcome.state]++;
  };
  const concurrency = Math.max(1, input.concurrency);
  const pending = [...urls];
  const busy: { u: FrontierUrl; until: number }[] = [];

  const one = async (u: FrontierUrl) => {
    const lease = await frontier.lease(u.ord, env.holder, leaseMs, env.now());
    if (lease.state !== 'taken') return notTaken(u, lease);
    // Renew the lease while this page is in progress (most pages finish before the first renewal).
    const renew = setInterval(() => {
      frontier.renew(u.ord, env.holder, leaseMs, env.now()).catch(() => undefined);
    }, Math.max(1000, Math.floor(leaseMs / 3)));
    try {
      await work(u, lease.retaken);
    } finally {
      clearInterval(renew);
    }
  };

  const notTaken = (u: FrontierUrl, lease: { state: 'done' } | { state: 'busy'; until: number }) => {
    if (lease.state === 'done') return;
    if (lease.state === 'busy') {
      // Another worker holds it (a duplicate delivery, or a worker that may have died): look again
      // when its lease ends, so the page is neither fetched twice nor lost.
      busy.push({ u, until: lease.until });
    }
  };

  const work = async (u: FrontierUrl, retaken: boolean) => {
    let page;
    try {
      page = await engine.scrapePage(u.url, crawlPageOptions(input));
    } catch (err) {
      // The start page failing fails the crawl (as before); any other page is recorded as failed and skipped.
      if (u.depth === 0) {
        await frontier.release(u.ord, env.holder);
        throw err;
      }
      await record(u.ord, { state: 'failed', error: (err as Error).message });
      return;
    }
    fetched++;
    if (page.skipped) {
      await record(u.ord, { state: 'skipped' });
      return;
    }
    if (page.blocked) {
      await record(u.ord, { state: 'failed', error: `challenge: ${page.blocked.kind}` });
      return;
    }
    const item = crawlItem(page, u.depth);
    if (u.via) item.data.via = u.via;
    const next: { url: string; depth: number }[] = [];
    if (u.depth < input.max_depth && input.sitemap !== 'only') {
      for (const link of page.links ?? []) {
        const n = normalizeUrl(link);
        if (n && sameSite(n, startUrl) && allowed(n)) next.push({ url: n, depth: u.depth + 1 });
      }
    }
    // The page (markdown, text, every link) is not needed past this point; an interpreted async
    // function keeps its locals while it awaits the table, so drop it rather than let it be promoted.
    // eslint-disable-next-line no-useless-assignment -- the assignment is the point: it frees the page
    page = undefined;
    if (next.length) {
      const admitted = await frontier.admit(next, u.ord, { retake: retaken });
      await sendSlices(frontier, slice.slice_id, admitted, env.send);
    }
    // The start page also seeds the crawl from the site's sitemaps (after its own links, so a page
    // it links to is not marked as found through a sitemap).
    if (u.depth === 0 && (input.sitemap ?? 'skip') !== 'skip' && input.max_depth >= 1) await seedFromSitemaps(env, slice.slice_id, u, retaken, new Set(next.map((n) => n.url)), reserveMs);
    const inline = Buffer.byteLength(JSON.stringify(item)) <= INLINE_ITEM_MAX_BYTES;
    await record(u.ord, inline ? { state: 'done', item } : { state: 'done', item_blob: await env.putBlob(u.ord, item) });
  };

  const active = new Set<Promise<void>>();
  let failure: unknown;
  while (pending.length || active.size) {
    while (!failure && pending.length && active.size < concurrency) {
      if (env.remainingMs() < reserveMs || env.shouldStop()) {
        // Hand the rest back: a new slice, counted before it is sent, picked up by any worker.
        deferred = pending.length;
        if (!env.shouldStop()) await sendSlices(frontier, slice.slice_id, pending.splice(0), env.send);
        else pending.splice(0);
        break;
      }
      const u = pending.shift()!;
      const task: Promise<void> = one(u)
        .catch((err) => {
          failure ??= err;
        })
        .finally(() => active.delete(task));
      active.add(task);
    }
    if (!active.size) break;
    await Promise.race(active);
  }
  if (failure) throw failure;
  if (busy.length) {
    const wait = Math.max(...busy.map((b) => b.until)) - env.now().getTime();
    await sendSlices(frontier, slice.slice_id, busy.map((b) => b.u), env.send, { delaySeconds: Math.min(MAX_DELAY_S, Math.max(1, Math.ceil(wait / 1000) + 1)) });
  }
  const { finished, counters } = await frontier.finishSlice(slice.slice_id, env.now(), { ...recorded, ...env.stats?.() });
  return { fetched, deferred, crawlFinished: finished, counters };
}
