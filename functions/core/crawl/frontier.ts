import { createHash, randomBytes } from 'node:crypto';
import { ConditionFailedError } from '../errors.js';
import type { Item, Table } from '../../ports/table.js';

/**
 * A crawl's durable frontier (issue 12): one record per normalised URL in the table, so any number
 * of workers can share one crawl and a worker killed mid-page loses nothing.
 *
 * Records, all in the run's own partition `TEN#<tenant>#CRAWL#<run_id>`:
 * - `STATE`: counters, updated only with atomic ADDs and conditions: `admitted` (URLs accepted
 *   into the crawl, never above max_pages), `done`, `failed`, `skipped` (added per slice),
 *   `finished_at` (set once, by the worker whose finished slice left no slice open).
 * - `URL#<hash>`: de-duplication. Created with `attribute_not_exists`, so a URL enters the crawl
 *   once however many pages link to it and however many workers find it at the same time. It
 *   carries the URL's ordinal `ord` (its place in the results), its depth and the page that found it.
 * - `ORD#<ord>`: the page's state (`queued` -> `done` | `failed` | `skipped`) and, once done, its
 *   item (or the blob key of an item too big for the table). Results read this range in order.
 * - `SLICE#<from>#<id>`: one record per slice of work not yet finished (an outbox): written with
 *   its URLs before its queue message is sent, deleted when the slice is finished. `<from>` is the
 *   id of the slice that sent it (`start` for the first).
 *
 * Work moves as slices: arrays of admitted URLs sent as queue messages. The crawl is over when no
 * slice record is left; deleting one is idempotent, so a message delivered again after its slice
 * was finished cannot end the crawl early (a counter of open slices could be lowered twice). A
 * slice's children are recorded before the slice's own record is deleted, and a redelivered slice
 * first re-sends every child record an earlier delivery left (it may have died between writing a
 * record and sending its message), so no record is ever left without a message.
 */

/** A slice of work: its id (`<from>#<id>`, the key of its record) and its URLs. */
export interface SliceRef {
  slice_id: string;
  urls: FrontierUrl[];
}

/** One URL in a slice. */
export interface FrontierUrl {
  url: string;
  depth: number;
  ord: number;
  /** `sitemap` when the URL entered the crawl from the site's sitemaps rather than a link. */
  via?: 'sitemap';
}

export type PageState = 'queued' | 'done' | 'failed' | 'skipped';

/** The page record of one admitted URL. */
export interface FrontierPage extends FrontierUrl {
  state: PageState;
  item?: unknown;
  item_blob?: string;
  error?: string;
  finished_at?: string;
}

export interface FrontierCounters {
  admitted: number;
  done: number;
  failed: number;
  skipped: number;
  max_pages: number;
  started_at: string;
  finished_at: string | null;
  /** Request stats summed over every slice. */
  requests?: number;
  bytes?: number;
  blocked_requests?: number;
  robots_skipped?: number;
}

/** Items larger than this go to a blob; the table's limit is 400 KB per item. */
export const INLINE_ITEM_MAX_BYTES = 300 * 1024;

const pad = (n: number) => String(n).padStart(10, '0');
/** A record's attributes without its key. */
const stripKey = <T>({ pk: _p, sk: _s, ...rest }: Item): T => rest as unknown as T;
/** The parent recorded on the start URL's claim (no page found it). */
const START_PARENT = -1;
/** The last part of a slice id: what the slices it sends are recorded under. */
export const ownId = (sliceId: string) => sliceId.slice(sliceId.lastIndexOf('#') + 1);
const urlHash = (url: string) => createHash('sha256').update(url).digest('base64url').slice(0, 32);

/**
 * URLs this process already knows to be claimed, per crawl. A claim is permanent, so a URL seen
 * claimed once never needs its conditional put again: on a real site most links on a page (the
 * navigation, the breadcrumb) point at pages already claimed, and this cache saves their table
 * writes. Only an optimisation: a process without it (another worker, a restart) asks the table.
 * Bounded; the whole cache is dropped when it grows past the bound.
 */
const knownClaimed = new Map<string, Set<string>>();
let knownCount = 0;
const KNOWN_MAX = 500_000;
function remember(pk: string, url: string) {
  if (knownCount >= KNOWN_MAX) {
    knownClaimed.clear();
    knownCount = 0;
  }
  let s = knownClaimed.get(pk);
  if (!s) knownClaimed.set(pk, (s = new Set()));
  if (!s.has(url)) {
    s.add(url);
    knownCount++;
  }
}

export class CrawlFrontier {
  private readonly pk: string;
  /** max_pages, once read: lets {@link reserve} try its update without reading the counters first. */
  private maxPages: number | undefined;

  constructor(
    private readonly table: Table,
    readonly tenantId: string,
    readonly runId: string,
  ) {
    this.pk = `TEN#${tenantId}#CRAWL#${runId}`;
  }

  private stateKey() {
    return { pk: this.pk, sk: 'STATE' };
  }

  /** The table key of the page record with ordinal `ord` (its state and, once done, its item). */
  pageKey(ord: number) {
    return { pk: this.pk, sk: `ORD#${pad(ord)}` };
  }

  /**
   * Create the frontier and admit the start URL; returns the first slice. Idempotent: a second
   * call (a redelivered start message, or one after a crash half-way) admits nothing new and
   * returns the same first slice (same id), so its record and message exist at least once.
   */
  async init(start: string, maxPages: number, now: Date): Promise<SliceRef | null> {
    try {
      await this.table.put(
        { ...this.stateKey(), admitted: 0, done: 0, failed: 0, skipped: 0, max_pages: maxPages, started_at: now.toISOString(), finished_at: null },
        { condition: { expression: 'attribute_not_exists(pk)' } },
      );
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
    // The start page's "parent" is START_PARENT, so a retake finds its claim again.
    const admitted = await this.admit([{ url: start, depth: 0 }], START_PARENT, { retake: true });
    if (!admitted.length) return null;
    return this.openSlice('start', admitted, '0');
  }

  /**
   * Record a slice of work (before its message is sent). `from` is the id of the sending slice;
   * `id` is random unless given (the first slice's is fixed, see {@link init}).
   */
  async openSlice(from: string, urls: FrontierUrl[], id = randomBytes(6).toString('base64url')): Promise<SliceRef> {
    const slice_id = `${from}#${id}`;
    await this.table.put({ pk: this.pk, sk: `SLICE#${slice_id}`, urls });
    return { slice_id, urls };
  }

  /** Slices recorded by an earlier delivery of slice `sliceId` (to send again: their messages may be lost). */
  async sentBy(sliceId: string): Promise<SliceRef[]> {
    const own = ownId(sliceId);
    const out: SliceRef[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.table.query({ pk: this.pk, skBeginsWith: `SLICE#${own}#`, consistent: true, limit: 100, cursor });
      out.push(...page.items.map((i) => ({ slice_id: i.sk.slice('SLICE#'.length), urls: i.urls as FrontierUrl[] })));
      cursor = page.cursor ?? undefined;
    } while (cursor);
    return out;
  }

  /** True while any slice of this crawl is recorded and not finished. */
  async hasOpenSlices(): Promise<boolean> {
    return (await this.table.query({ pk: this.pk, skBeginsWith: 'SLICE#', consistent: true, limit: 1 })).items.length > 0;
  }

  async counters(consistent = true): Promise<FrontierCounters | undefined> {
    const s = await this.table.get(this.stateKey(), { consistent });
    if (!s) return undefined;
    this.maxPages = Number(s.max_pages);
    return stripKey<FrontierCounters>(s);
  }

  /**
   * Admit `candidates` (already normalised and filtered by the caller): each URL not seen before
   * gets a de-duplication record and an ordinal, up to the run's max_pages in total across every
   * worker. Returns the URLs admitted by this call, in the order given.
   *
   * `retake` says the parent page may have been worked on before (its lease was taken over from a
   * worker that died, or the caller cannot tell): then URLs found already claimed are read back to
   * pick up this parent's own earlier claims, and the process's cache of claimed URLs is not
   * trusted. A first visit (`retake: false`) skips both: nobody else can have claimed as this page.
   */
  async admit(candidates: { url: string; depth: number }[], parentOrd: number | null = null, opts: { retake?: boolean } = {}): Promise<FrontierUrl[]> {
    const retake = opts.retake ?? true;
    const known = retake ? undefined : knownClaimed.get(this.pk);
    // 1. Claim each new URL (the conditional put decides between racing workers), all at once. A
    // claim made earlier by the same parent page (a redelivered slice re-processing that page
    // after a crash) is picked up again, so a crash between claiming and queueing loses no URL.
    const unique: { url: string; depth: number }[] = [];
    const seen = new Set<string>();
    for (const c of candidates) {
      if (seen.has(c.url) || known?.has(c.url)) continue;
      seen.add(c.url);
      unique.push(c);
    }
    const results = await Promise.all(
      unique.map(async (c): Promise<{ url: string; depth: number; ord?: number } | null> => {
        const key = { pk: this.pk, sk: `URL#${urlHash(c.url)}` };
        try {
          await this.table.put({ ...key, url: c.url, depth: c.depth, parent: parentOrd }, { condition: { expression: 'attribute_not_exists(pk)' } });
          remember(this.pk, c.url);
          return c;
        } catch (err) {
          if (!(err instanceof ConditionFailedError)) throw err;
          remember(this.pk, c.url);
          if (!retake || parentOrd === null) return null;
          const prior = await this.table.get(key, { consistent: true });
          return prior?.parent === parentOrd ? { ...c, ord: typeof prior.ord === 'number' ? prior.ord : undefined } : null;
        }
      }),
    );
    const claimed = results.filter((c): c is { url: string; depth: number; ord?: number } => c !== null);
    const out: FrontierUrl[] = claimed.filter((c) => c.ord !== undefined).map((c) => ({ url: c.url, depth: c.depth, ord: c.ord! }));
    // A claim that already carries its ordinal (a retake) has its page record written first, but a
    // batch write is not atomic: make sure the page record exists (never overwriting its state).
    await Promise.all(out.map((c) => this.table.put({ pk: this.pk, sk: `ORD#${pad(c.ord)}`, url: c.url, depth: c.depth, ord: c.ord, state: 'queued' }, { condition: { expression: 'attribute_not_exists(pk)' } }).catch((err) => {
      if (!(err instanceof ConditionFailedError)) throw err;
    })));
    const pending = claimed.filter((c) => c.ord === undefined);
    if (!pending.length) return out;
    // 2. Reserve ordinals within max_pages. URLs past the budget stay claimed and are never
    // crawled: the budget never grows back, so nothing could admit them later anyway.
    const range = await this.reserve(pending.length);
    if (!range) return out;
    // 3. Page records, then the ordinal on each claim (a retake finds it there), in one batch write
    // (25 records a call): the claims were created by this call, so rewriting them whole is safe.
    // Page records come first in the list, so a claim carries its ordinal only after its page
    // record was sent; a retake re-creates any page record a partial batch left out (above).
    const fresh = pending.slice(0, range.last - range.first + 1).map((c, i) => ({ url: c.url, depth: c.depth, ord: range.first + i }));
    await this.table.batchPut([
      ...fresh.map((c) => ({ ...this.pageKey(c.ord), url: c.url, depth: c.depth, ord: c.ord, state: 'queued' })),
      ...fresh.map((c) => ({ pk: this.pk, sk: `URL#${urlHash(c.url)}`, url: c.url, depth: c.depth, parent: parentOrd, ord: c.ord })),
    ]);
    return [...out, ...fresh];
  }

  /**
   * Take the page for fetching. `taken` when it is still queued and nobody else holds a live lease
   * on it; `done` when it was already recorded; `busy` (with the lease's end) while another
   * worker holds it. A slice delivered twice therefore fetches each page once; a worker that died
   * leaves a lease that expires, and then the page is fetched again.
   */
  async lease(ord: number, holder: string, leaseMs: number, now: Date): Promise<{ state: 'taken'; retaken: boolean } | { state: 'done' } | { state: 'busy'; until: number }> {
    const key = this.pageKey(ord);
    try {
      // `leases` counts takings: above 1, the page was worked on before (see admit's `retake`).
      const after = await this.table.update<Item>(key, {
        set: { lease_until: now.getTime() + leaseMs, lease_holder: holder },
        add: { leases: 1 },
        condition: {
          expression: '#st = :queued AND (attribute_not_exists(lease_until) OR lease_until < :now OR lease_holder = :me)',
          names: { '#st': 'state' },
          values: { ':queued': 'queued', ':now': now.getTime(), ':me': holder },
        },
      });
      return { state: 'taken', retaken: Number(after.leases) > 1 };
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
    const cur = await this.table.get(key, { consistent: true });
    if (!cur || cur.state !== 'queued') return { state: 'done' };
    return { state: 'busy', until: Number(cur.lease_until ?? 0) };
  }

  /** Keep a lease taken with {@link lease} while its page is still in progress. */
  async renew(ord: number, holder: string, leaseMs: number, now: Date): Promise<void> {
    await this.table
      .update(this.pageKey(ord), {
        set: { lease_until: now.getTime() + leaseMs },
        condition: { expression: '#st = :queued AND lease_holder = :me', names: { '#st': 'state' }, values: { ':queued': 'queued', ':me': holder } },
      })
      .catch((err) => {
        if (!(err instanceof ConditionFailedError)) throw err;
      });
  }

  /** Reserve up to `n` ordinals within max_pages: [first, last], or null when the budget is spent. */
  private async reserve(n: number): Promise<{ first: number; last: number } | null> {
    // Usually there is room for all n: one conditional update, no read.
    if (this.maxPages !== undefined) {
      const range = await this.tryReserve(n, this.maxPages);
      if (range) return range;
    }
    for (let attempt = 0; attempt < 20; attempt++) {
      const s = await this.counters(true);
      if (!s) throw new Error(`crawl frontier ${this.runId} is not initialised`);
      const room = s.max_pages - s.admitted;
      if (room <= 0) return null;
      const range = await this.tryReserve(Math.min(n, room), s.max_pages);
      if (range) return range;
    }
    return null;
  }

  /** Take `take` ordinals if that keeps `admitted` within `maxPages`; null when another worker got there first. */
  private async tryReserve(take: number, maxPages: number): Promise<{ first: number; last: number } | null> {
    try {
      const after = await this.table.update<Item>(this.stateKey(), {
        add: { admitted: take, next_ord: take },
        condition: { expression: 'admitted <= :limit', values: { ':limit': maxPages - take } },
      });
      const next = Number(after.next_ord);
      return { first: next - take, last: next - 1 };
    } catch (err) {
      if (err instanceof ConditionFailedError) return null;
      throw err;
    }
  }

  /** Give a lease back (the page failed in a way the queue will retry): the retry may take it at once. */
  async release(ord: number, holder: string): Promise<void> {
    await this.table
      .update(this.pageKey(ord), { set: { lease_until: 0 }, condition: { expression: 'lease_holder = :me', values: { ':me': holder } } })
      .catch((err) => {
        if (!(err instanceof ConditionFailedError)) throw err;
      });
  }

  /**
   * A slice is finished: every URL in it recorded or handed on, every slice it produced recorded
   * and sent. Deletes its record; the delivery that deleted it adds the slice's counts (`add`:
   * pages done, failed, skipped; request stats) in one update. When no slice is left open the
   * crawl is over: `finished` is true for exactly one caller, whose conditional write sets
   * `finished_at`. A delivery of a slice already finished changes nothing.
   */
  async finishSlice(sliceId: string, now: Date, add: Record<string, number> = {}): Promise<{ finished: boolean; counters: FrontierCounters }> {
    const gone = await this.table.delete({ pk: this.pk, sk: `SLICE#${sliceId}` });
    if (!gone) return { finished: false, counters: (await this.counters(true))! };
    const counts = Object.fromEntries(Object.entries(add).filter(([, v]) => v !== 0));
    const counters = Object.keys(counts).length ? stripKey<FrontierCounters>(await this.table.update<Item>(this.stateKey(), { add: counts })) : (await this.counters(true))!;
    if (counters.finished_at || (await this.hasOpenSlices())) return { finished: false, counters };
    try {
      await this.table.update(this.stateKey(), {
        set: { finished_at: now.toISOString() },
        condition: { expression: 'finished_at = :null', values: { ':null': null } },
      });
      return { finished: true, counters: { ...(await this.reconcile(counters)), finished_at: now.toISOString() } };
    } catch (err) {
      if (err instanceof ConditionFailedError) return { finished: false, counters };
      throw err;
    }
  }

  /**
   * Page counts are added per slice, when it finishes; a worker killed after recording pages but
   * before finishing its slice takes their counts with it (the redelivered slice finds them
   * recorded and does not count them again). When the crawl ends with fewer pages counted than
   * admitted, count the page records once and set the counters to what they hold. Once per crawl
   * at most, and only after such a loss or an early stop.
   */
  private async reconcile(c: FrontierCounters): Promise<FrontierCounters> {
    if (c.done + c.failed + c.skipped >= c.admitted) return c;
    const n = { done: 0, failed: 0, skipped: 0 };
    let cursor: string | undefined;
    do {
      const page = await this.pages({ limit: 200, cursor });
      for (const p of page.pages) if (p.state !== 'queued') n[p.state]++;
      cursor = page.cursor ?? undefined;
    } while (cursor);
    await this.table.update(this.stateKey(), { set: n });
    return { ...c, ...n };
  }

  async page(ord: number): Promise<FrontierPage | undefined> {
    const i = await this.table.get(this.pageKey(ord), { consistent: true });
    return i ? stripKey<FrontierPage>(i) : undefined;
  }

  /**
   * Record the outcome of one page, once: a redelivered slice whose page was already recorded gets
   * false and must not count it again. The item is stored with the page (or as `item_blob`). The
   * caller counts pages recorded with true and adds them with {@link finishSlice}.
   */
  async record(ord: number, outcome: { state: Exclude<PageState, 'queued'>; item?: unknown; item_blob?: string; error?: string }, now: Date): Promise<boolean> {
    const set: Record<string, unknown> = { state: outcome.state, finished_at: now.toISOString() };
    if (outcome.item !== undefined) set.item = outcome.item;
    if (outcome.item_blob) set.item_blob = outcome.item_blob;
    if (outcome.error) set.error = outcome.error.slice(0, 1000);
    try {
      await this.table.update(this.pageKey(ord), { set, condition: { expression: '#st = :queued', names: { '#st': 'state' }, values: { ':queued': 'queued' } } });
    } catch (err) {
      if (err instanceof ConditionFailedError) return false;
      throw err;
    }
    return true;
  }

  /** Pages in ordinal order (the crawl's result order), from `afterOrd` on. */
  async pages(opts: { afterOrd?: number; limit: number; cursor?: string }): Promise<{ pages: FrontierPage[]; cursor: string | null }> {
    const res = await this.table.query({
      pk: this.pk,
      ...(opts.afterOrd !== undefined ? { skBetween: [`ORD#${pad(opts.afterOrd + 1)}`, 'ORD#9999999999'] as [string, string] } : { skBeginsWith: 'ORD#' }),
      limit: opts.limit,
      cursor: opts.cursor,
    });
    return { pages: res.items.map((i) => stripKey<FrontierPage>(i)), cursor: res.cursor };
  }
}

/** The frontier of a run's attempt: a retried start (new attempt) crawls afresh in its own partition. */
export const frontierFor = (table: Table, run: { tenant_id: string; id: string; attempt: number }) => new CrawlFrontier(table, run.tenant_id, `${run.id}#a${run.attempt}`);
