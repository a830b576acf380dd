import { createHash, randomBytes } from 'node:crypto';
import { ConditionFailedError } from '../errors.js';
import type { Item, Table } from '../../ports/table.js';
import { SLICE_MAX_URLS } from '../queue-messages.js';

/**
 * A crawl's durable frontier (issue 12): one record per normalised URL in the table, so any number
 * of workers can share one crawl and a worker killed at any point loses no page and no budget.
 *
 * Records, all in the run's own partition `TEN#<tenant>#CRAWL#<run_id>`:
 * - `STATE`: counters, updated only with atomic ADDs and conditions: `admitted` (ordinals handed
 *   out, never above max_pages), `next_ord`, `done`, `failed`, `skipped` (added per slice),
 *   `retakes` (slices taken over from a worker that died: the crawl's end then checks the records,
 *   see {@link CrawlFrontier.repair}), `finished_at` (set once, by the worker whose finished slice
 *   left no slice open).
 * - `URL#<hash>`: de-duplication. Created with `attribute_not_exists`, so a URL enters the crawl
 *   once however many pages link to it and however many workers find it at the same time. It
 *   carries the page that found it (`parent`), its depth and, once numbered, its ordinal `ord`
 *   (its place in the results). The claim is the one truth of a URL's ordinal: it gets its `ord`
 *   before any page record of that ordinal is written, so a retake can never number a URL twice.
 * - `ORD#<ord>`: the page's state (`queued` -> `done` | `failed` | `skipped`) and, once done, its
 *   item (or the blob key of an item too big for the table). Results read this range in order.
 * - `SLICE#<from>#<id>`: one record per slice of work not yet finished (an outbox): written with
 *   its URLs before its queue message is sent, deleted when the slice is finished. `<from>` is the
 *   id of the slice that sent it (`start` for the first). It also holds the slice's lease: one
 *   worker works a slice at a time (the page records carry no lease of their own).
 *
 * Work moves as slices: arrays of admitted URLs sent as queue messages. The crawl is over when no
 * slice record is left; deleting one is idempotent, so a message delivered again after its slice
 * was finished cannot end the crawl early (a counter of open slices could be lowered twice). A
 * slice's children are recorded before the slice's own record is deleted, and a retaken slice
 * first re-sends every child record an earlier delivery left (it may have died between writing a
 * record and sending its message), so no record is ever left without a message.
 *
 * Table calls are batched: a slice's pages are written together (BatchWriteItem, 25 records a
 * call, no conditions: every record in a batch is one this slice alone owns), so steady crawling
 * costs about one conditional put per new URL and a few calls per slice of up to 50 pages.
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

/** Where a slice can be cut short (fault injection in tests: a worker killed right after it). */
export type SliceStep = 'claims' | 'reserve' | 'ordinals' | 'fetch' | 'records' | 'sent';
/** Called after each step; a test's hook throws (and kills its worker's table) to simulate a crash there. */
export type FaultHook = (step: SliceStep) => void | Promise<void>;

/** A URL found by a page, to admit: its depth and the ordinal of the page that linked it. */
export interface Candidate {
  url: string;
  depth: number;
  parent: number;
  /** Found through the site's sitemap rather than a link (kept on the page's item). */
  via?: 'sitemap';
}

/** What {@link CrawlFrontier.admit} returns: the URLs admitted and the page records to write for them. */
export interface Admission {
  urls: FrontierUrl[];
  /** Page records (`queued`) of the URLs numbered by this call; the caller writes them in its batch. */
  pageRecords: Item[];
}

export class CrawlFrontier {
  private readonly pk: string;
  /** max_pages, once read: lets {@link reserve} try its update without reading the counters first. */
  private maxPages: number | undefined;

  constructor(
    private readonly table: Table,
    readonly tenantId: string,
    readonly runId: string,
    private readonly fault?: FaultHook,
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

  private sliceKey(sliceId: string) {
    return { pk: this.pk, sk: `SLICE#${sliceId}` };
  }

  private claimKey(url: string) {
    return { pk: this.pk, sk: `URL#${urlHash(url)}` };
  }

  /** The queued page record of an admitted URL. */
  pageRecord(u: FrontierUrl): Item {
    return { ...this.pageKey(u.ord), url: u.url, depth: u.depth, ord: u.ord, state: 'queued' };
  }

  /**
   * Create the frontier and admit its seeds (the start URL first, at depth 0; other seeds, such as
   * a sitemap's URLs, at the depth the caller gives); returns the first slices. Idempotent: a
   * second call (a redelivered start message, or one after a crash half-way) admits nothing new
   * and returns the same slices (same ids, `start#0`, `start#1`, ...), so each record and message
   * exists at least once.
   */
  async init(seeds: string | { url: string; depth: number }[], maxPages: number, now: Date): Promise<SliceRef[]> {
    const list = typeof seeds === 'string' ? [{ url: seeds, depth: 0 }] : seeds;
    try {
      await this.table.put(
        { ...this.stateKey(), admitted: 0, next_ord: 0, done: 0, failed: 0, skipped: 0, retakes: 0, max_pages: maxPages, started_at: now.toISOString(), finished_at: null },
        { condition: { expression: 'attribute_not_exists(pk)' } },
      );
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
    // Seeds' "parent" is START_PARENT, so a retake finds their claims again.
    const { urls, pageRecords } = await this.admit(list.map((s) => ({ ...s, parent: START_PARENT })), { retake: true });
    if (!urls.length) return [];
    const slices = chunks(urls, SLICE_MAX_URLS).map((c, i) => this.sliceRecord('start', c, String(i)));
    await this.table.batchPut([...pageRecords, ...slices.map((s) => s.item)]);
    return slices.map((s) => s.ref);
  }

  /** A slice's record (to write in a batch, before its message is sent) and its reference. */
  sliceRecord(from: string, urls: FrontierUrl[], id = randomBytes(6).toString('base64url')): { ref: SliceRef; item: Item } {
    const slice_id = `${from}#${id}`;
    return { ref: { slice_id, urls }, item: { ...this.sliceKey(slice_id), urls } };
  }

  /**
   * Record a slice of work (before its message is sent). `from` is the id of the sending slice;
   * `id` is random unless given.
   */
  async openSlice(from: string, urls: FrontierUrl[], id?: string): Promise<SliceRef> {
    const { ref, item } = this.sliceRecord(from, urls, id);
    await this.table.put(item);
    return ref;
  }

  /** Write records in batches of 25 (BatchWriteItem: no conditions, so only records the caller alone owns). */
  async writeBatch(items: Item[]): Promise<void> {
    if (items.length) await this.table.batchPut(items);
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
   * gets a de-duplication claim and an ordinal, up to the run's max_pages in total across every
   * worker. Returns the URLs admitted by this call, in the order given, and the page records of
   * those it numbered, for the caller to write in its batch (with the slices that carry them).
   *
   * Steps, each safe to die after: (1) claim each new URL (conditional put: the table decides
   * between racing workers), (2) reserve ordinals on `STATE`, (3) write each ordinal on its claim
   * (one batch), (4, the caller) page records, with the slices carrying them. A claim carries its ordinal before any page record
   * of it exists, so a URL is never numbered twice. A retake (`retake`: the pages whose links
   * these are may have been worked on before) picks up claims its parents made earlier: numbered
   * ones are admitted again (their page record re-created if a batch left it out, never reset),
   * unnumbered ones are numbered now. Ordinals reserved by a worker that died before (3) are not
   * lost for good: {@link repair} gives them back at the crawl's end.
   */
  async admit(candidates: Candidate[], opts: { retake?: boolean; adopted?: Set<string> } = {}): Promise<Admission> {
    const retake = opts.retake ?? true;
    const known = retake ? undefined : knownClaimed.get(this.pk);
    const parents = new Set(candidates.map((c) => c.parent));
    const unique: Candidate[] = [];
    const seen = new Set<string>();
    for (const c of candidates) {
      if (seen.has(c.url) || known?.has(c.url) || opts.adopted?.has(c.url)) continue;
      seen.add(c.url);
      unique.push(c);
    }
    // 1. Claims, at most CLAIMS_IN_FLIGHT at a time: a batch's few hundred conditional puts sent at
    // once would queue every other caller's table call behind them (the table and the process).
    const results = await mapLimit(
      unique,
      CLAIMS_IN_FLIGHT,
      async (c): Promise<(Candidate & { ord?: number }) | null> => {
        const key = this.claimKey(c.url);
        try {
          await this.table.put({ ...key, url: c.url, depth: c.depth, parent: c.parent }, { condition: { expression: 'attribute_not_exists(pk)' } });
          remember(this.pk, c.url);
          return c;
        } catch (err) {
          if (!(err instanceof ConditionFailedError)) throw err;
          remember(this.pk, c.url);
          if (!retake) return null;
          const prior = await this.table.get(key, { consistent: true });
          if (!prior || !parents.has(Number(prior.parent))) return null;
          return { ...c, depth: Number(prior.depth), parent: Number(prior.parent), ord: typeof prior.ord === 'number' ? prior.ord : undefined };
        }
      },
    );
    await this.fault?.('claims');
    const claimed = results.filter((c): c is Candidate & { ord?: number } => c !== null);
    for (const c of claimed) opts.adopted?.add(c.url);
    const numbered = new Map<string, FrontierUrl>();
    // Claims numbered by an earlier try: their page record may be missing (a batch cut short) but
    // may also be done by now, so it is created only where absent.
    const prior = claimed.filter((c) => c.ord !== undefined).map((c) => ({ url: c.url, depth: c.depth, ord: c.ord!, ...(c.via ? { via: c.via } : {}) }));
    await Promise.all(prior.map((u) => this.table.put(this.pageRecord(u), { condition: { expression: 'attribute_not_exists(pk)' } }).catch((err) => {
      if (!(err instanceof ConditionFailedError)) throw err;
    })));
    for (const u of prior) numbered.set(u.url, u);
    const pending = claimed.filter((c) => c.ord === undefined);
    let fresh: (FrontierUrl & { parent: number })[] = [];
    if (pending.length) {
      // 2. Reserve ordinals within max_pages. URLs past the budget stay claimed without one; they
      // are crawled only if a crash's unused ordinals are given back at the end (repair).
      const range = await this.reserve(pending.length);
      await this.fault?.('reserve');
      if (range) {
        fresh = pending.slice(0, range.last - range.first + 1).map((c, i) => ({ url: c.url, depth: c.depth, parent: c.parent, ord: range.first + i, ...(c.via ? { via: c.via } : {}) }));
        // 3. Ordinals onto the claims (created by this crawl's own pages: rewriting them whole is safe).
        await this.table.batchPut(fresh.map((c) => ({ ...this.claimKey(c.url), url: c.url, depth: c.depth, parent: c.parent, ord: c.ord })));
        await this.fault?.('ordinals');
        for (const c of fresh) numbered.set(c.url, { url: c.url, depth: c.depth, ord: c.ord, ...(c.via ? { via: c.via } : {}) });
      }
    }
    const urls = claimed.map((c) => numbered.get(c.url)).filter((u): u is FrontierUrl => u !== undefined);
    return { urls, pageRecords: fresh.map((c) => this.pageRecord(c)) };
  }

  /**
   * Take a slice for working on it. `taken` (with `retaken` when an earlier delivery took it
   * before: it may have died half-way) when nobody else holds a live lease on it; `gone` when the
   * slice was finished; `busy` (with the lease's end) while another worker holds it. A slice
   * delivered twice is therefore worked once at a time; a worker that died leaves a lease that
   * expires, and then the slice is taken over.
   */
  async leaseSlice(sliceId: string, holder: string, leaseMs: number, now: Date): Promise<{ state: 'taken'; retaken: boolean } | { state: 'gone' } | { state: 'busy'; until: number }> {
    const key = this.sliceKey(sliceId);
    try {
      const after = await this.table.update<Item>(key, {
        set: { lease_until: now.getTime() + leaseMs, lease_holder: holder },
        add: { leases: 1 },
        condition: {
          expression: 'attribute_exists(pk) AND (attribute_not_exists(lease_until) OR lease_until < :now OR lease_holder = :me)',
          values: { ':now': now.getTime(), ':me': holder },
        },
      });
      return { state: 'taken', retaken: Number(after.leases) > 1 };
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
    const cur = await this.table.get(key, { consistent: true });
    if (!cur) return { state: 'gone' };
    return { state: 'busy', until: Number(cur.lease_until ?? 0) };
  }

  /** Keep a slice's lease while it is still being worked on. */
  async renewSlice(sliceId: string, holder: string, leaseMs: number, now: Date): Promise<void> {
    await this.table
      .update(this.sliceKey(sliceId), { set: { lease_until: now.getTime() + leaseMs }, condition: { expression: 'lease_holder = :me', values: { ':me': holder } } })
      .catch((err) => {
        if (!(err instanceof ConditionFailedError)) throw err;
      });
  }

  /** Give a slice's lease back (it failed in a way the queue will retry): the retry may take it at once. */
  async releaseSlice(sliceId: string, holder: string): Promise<void> {
    await this.table
      .update(this.sliceKey(sliceId), { set: { lease_until: 0 }, condition: { expression: 'lease_holder = :me', values: { ':me': holder } } })
      .catch((err) => {
        if (!(err instanceof ConditionFailedError)) throw err;
      });
  }

  /** A slice was taken over from a worker that may have died: the crawl's end checks its records (repair). */
  /** Add page counts to the crawl's counters (a slice's progress before it finishes); returns the counters after. */
  async addCounts(add: Record<string, number>): Promise<FrontierCounters> {
    const counts = Object.fromEntries(Object.entries(add).filter(([, v]) => v !== 0));
    if (!Object.keys(counts).length) return (await this.counters(true))!;
    return stripKey<FrontierCounters>(await this.table.update<Item>(this.stateKey(), { add: counts }));
  }

  async noteRetake(): Promise<void> {
    await this.table.update(this.stateKey(), { add: { retakes: 1 } });
  }

  /** The states of some pages (a retaken slice skips those an earlier delivery recorded). */
  async states(ords: number[]): Promise<Map<number, PageState>> {
    const out = new Map<number, PageState>();
    await Promise.all(ords.map(async (o) => {
      const p = await this.table.get(this.pageKey(o), { consistent: true });
      if (p) out.set(o, p.state as PageState);
    }));
    return out;
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

  /**
   * A slice is finished: every URL in it recorded or handed on, every slice it produced recorded
   * and sent. Deletes its record; the delivery that deleted it adds the slice's counts (`add`:
   * pages done, failed, skipped; request stats) in one update. When no slice is left open the
   * crawl is over: `finished` is true for exactly one caller, whose conditional write sets
   * `finished_at`. A delivery of a slice already finished changes nothing.
   *
   * When a slice was ever taken over from a worker that died (`retakes`), the last slice first
   * checks the records (see {@link repair}) under its own record, written again for the purpose:
   * URLs it finds to crawl come back as `repair`, for the caller to send (they are recorded as
   * slices of this one, so a crash before sending them is recovered like any other) and then to
   * finish this slice again.
   */
  async finishSlice(sliceId: string, now: Date, add: Record<string, number> = {}, holder = 'finisher'): Promise<{ finished: boolean; counters: FrontierCounters; repair?: SliceRef[] }> {
    const gone = await this.table.delete(this.sliceKey(sliceId));
    const counts = Object.fromEntries(Object.entries(add).filter(([, v]) => v !== 0));
    if (!gone) return { finished: false, counters: (await this.counters(true))! };
    const counters = Object.keys(counts).length ? stripKey<FrontierCounters>(await this.table.update<Item>(this.stateKey(), { add: counts })) : (await this.counters(true))!;
    if (counters.finished_at || (await this.hasOpenSlices())) return { finished: false, counters };
    if (Number((counters as { retakes?: number }).retakes ?? 0) > 0) {
      // Hold the crawl open with this slice's record while checking; one checker at a time (the
      // one whose update found retakes above 0 and set them to 0).
      // `leases: 1`: a delivery that takes it over after a crash is a retake and re-sends what this one recorded.
      await this.table.put({ ...this.sliceKey(sliceId), urls: [], lease_holder: holder, lease_until: now.getTime() + 60_000, leases: 1 });
      let won = false;
      try {
        await this.table.update(this.stateKey(), { set: { retakes: 0 }, condition: { expression: 'retakes > :z', values: { ':z': 0 } } });
        won = true;
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
      }
      const found = won ? await this.repair() : [];
      if (found.length) {
        const slices = chunks(found, SLICE_MAX_URLS).map((c) => this.sliceRecord(ownId(sliceId), c));
        await this.writeBatch(slices.map((s) => s.item));
        return { finished: false, counters, repair: slices.map((s) => s.ref) };
      }
      return this.finishSlice(sliceId, now, {}, holder);
    }
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
   * After a worker died somewhere in a slice (any step: see {@link SliceStep}), with no slice left
   * open: read every claim and page record once and return the URLs still to crawl, each with a
   * page record: pages left `queued` (no slice carries them any more), claims numbered without a
   * page record, and, within the budget, claims never numbered. The budget is first set to the
   * ordinals claims really hold, which gives back ordinals reserved by a worker that died before
   * writing them on its claims. Runs only at the end of a crawl that had a retake.
   */
  async repair(): Promise<FrontierUrl[]> {
    const claims: Item[] = [];
    const pages = new Map<number, Item>();
    for (const [prefix, sink] of [['URL#', (i: Item) => claims.push(i)], ['ORD#', (i: Item) => pages.set(Number(i.ord), i)]] as const) {
      let cursor: string | undefined;
      do {
        const page = await this.table.query({ pk: this.pk, skBeginsWith: prefix, consistent: true, limit: 500, cursor });
        page.items.forEach(sink);
        cursor = page.cursor ?? undefined;
      } while (cursor);
    }
    const out: FrontierUrl[] = [];
    const missing: FrontierUrl[] = [];
    let used = 0;
    for (const c of claims) {
      if (typeof c.ord !== 'number') continue;
      used++;
      const p = pages.get(c.ord);
      const u = { url: String(c.url), depth: Number(c.depth), ord: c.ord };
      if (!p) missing.push(u);
      else if (p.state === 'queued') out.push(u);
    }
    await Promise.all(missing.map((u) => this.table.put(this.pageRecord(u), { condition: { expression: 'attribute_not_exists(pk)' } }).catch((err) => {
      if (!(err instanceof ConditionFailedError)) throw err;
    })));
    out.push(...missing);
    const s = (await this.counters(true))!;
    await this.table.update(this.stateKey(), { set: { admitted: used } });
    const room = s.max_pages - used;
    const unnumbered = claims.filter((c) => typeof c.ord !== 'number').sort((a, b) => Number(a.depth) - Number(b.depth) || String(a.url).localeCompare(String(b.url)));
    if (room > 0 && unnumbered.length) {
      const { urls, pageRecords } = await this.admit(unnumbered.slice(0, room).map((c) => ({ url: String(c.url), depth: Number(c.depth), parent: Number(c.parent) })), { retake: true });
      await this.writeBatch(pageRecords);
      out.push(...urls);
    }
    return out.sort((a, b) => a.ord - b.ord);
  }

  /**
   * Page counts are added per slice, when it finishes; a worker killed after recording pages but
   * before finishing its slice takes their counts with it (the retaken slice finds them recorded
   * and does not count them again). When the crawl ends with the counts off the admitted total,
   * count the page records once and set the counters to what they hold. Once per crawl at most,
   * and only after such a loss or an early stop.
   */
  private async reconcile(c: FrontierCounters): Promise<FrontierCounters> {
    if (c.done + c.failed + c.skipped === c.admitted) return c;
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
   * The record of a page's outcome, to write in a batch: the whole page record, with the item (or
   * `item_blob`). Only the slice holding the page's lease writes it; a retaken slice reads the
   * states first and skips recorded pages, so a recorded page is not counted twice.
   */
  outcomeRecord(u: FrontierUrl, outcome: { state: Exclude<PageState, 'queued'>; item?: unknown; item_blob?: string; error?: string }, now: Date): Item {
    const rec: Item = { ...this.pageKey(u.ord), url: u.url, depth: u.depth, ord: u.ord, state: outcome.state, finished_at: now.toISOString() };
    if (outcome.item !== undefined) rec.item = outcome.item;
    if (outcome.item_blob) rec.item_blob = outcome.item_blob;
    if (outcome.error) rec.error = outcome.error.slice(0, 1000);
    return rec;
  }

  /**
   * Items that are no page of this crawl (change tracking's removed pages, API.md "Change
   * tracking"), appended after its pages: ordinals past every one reserved (`next_ord`), counted
   * as done with `add`, written in one batch with the caller's `extra` records.
   */
  async appendItems(items: { url: string; item: unknown }[], now: Date, extra: Item[] = [], add: Record<string, number> = {}): Promise<void> {
    if (!items.length) return;
    const s = await this.table.update<Item>(this.stateKey(), { add: { next_ord: items.length, done: items.length, ...add } });
    const first = Number(s.next_ord) - items.length;
    await this.writeBatch([...items.map((x, i) => this.outcomeRecord({ url: x.url, depth: 0, ord: first + i }, { state: 'done', item: x.item }, now)), ...extra]);
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

/** Claims (conditional puts) one admission has in flight at once. */
const CLAIMS_IN_FLIGHT = 16;

/** `fn` over `items` with at most `limit` calls in flight; results in the order of `items`. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

const chunks = <T>(a: T[], n: number): T[][] => Array.from({ length: Math.ceil(a.length / n) }, (_, i) => a.slice(i * n, (i + 1) * n));

/** The frontier of a run's attempt: a retried start (new attempt) crawls afresh in its own partition. */
export const frontierFor = (table: Table, run: { tenant_id: string; id: string; attempt: number }, fault?: FaultHook) => new CrawlFrontier(table, run.tenant_id, `${run.id}#a${run.attempt}`, fault);
