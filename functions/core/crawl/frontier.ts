import { createHash, randomBytes } from 'node:crypto';
import { ConditionFailedError } from '../errors.js';
import type { Condition, Item, Table, UpdateSpec } from '../../ports/table.js';
import { SLICE_MAX_URLS } from '../queue-messages.js';

/**
 * A crawl's durable frontier (issue 12): one record per normalised URL in the table, so any number
 * of workers can share one crawl and a worker killed at any point loses no page and no budget.
 *
 * Records, all in the run's own partition `TEN#<tenant>#CRAWL#<run_id>`:
 * - `STATE`: counters, updated only with atomic ADDs and conditions: `admitted` (ordinals handed
 *   out, never above max_pages), `next_ord`, `done`, `failed`, `skipped` (added per slice),
 *   `finished_at` (set once, by the worker whose finished slice left no slice open), `admissions`
 *   (counted before each admission's claims: the check of the fence below). Short-lived attributes
 *   make crash recovery exact without reading the crawl: `rsv_<ledger>` and `com_<ledger>` (the
 *   ordinals one admission reserved, and the first of them once committed, while its ledger
 *   exists), `cnt_<slice>` (the pages of a slice already counted, while its slice record exists).
 *   They are removed with a later update of `STATE`, so it holds a few dozen bytes per slice in
 *   flight, whatever the crawl's size. `own_<slice>`/`owt_<slice>` (the fence: the delivery that
 *   retook a slice, see {@link CrawlFrontier.fence}) stay 30 minutes, past the life of any
 *   delivery it fenced: one pair per retake.
 * - `URL#<hash>`: de-duplication. Created with `attribute_not_exists`, so a URL enters the crawl
 *   once however many pages link to it and however many workers find it at the same time. It
 *   names the admission (ledger) that claimed it (`by`).
 * - `LEDGER#<from>#<id>`: one admission's candidate URLs, written before their claims and deleted
 *   once the slices carrying the URLs it numbered are recorded. Its reservation is committed on
 *   `STATE` before any slice carrying its URLs is written, and those slices have ids of the
 *   ledger's (`<from>#<ledger id>.<k>`), each written only if absent: a retake adopts a committed
 *   reservation and writes the very same slices. A delivery that dies anywhere in between leaves
 *   it behind, and the retake of its slice finishes the admission from it
 *   ({@link CrawlFrontier.unsettled}): so a crash costs no budget and loses no URL, and nothing
 *   at the crawl's end has to read every record to find out.
 * - `ORD#<ord>`: the page's outcome (`done` | `failed` | `skipped`) and, once done, its item (or
 *   where its item is stored: a blob of the batch's items, or one of its own when it is large).
 *   Written once, when the page is finished; an admitted page without one is still to crawl.
 *   Results read this range in order.
 * - `SLICE#<from>#<id>`: one record per slice of work not yet finished (an outbox): written with
 *   its URLs before its queue message is sent, deleted when the slice is finished. `<from>` is the
 *   id of the slice that sent it (`start` for the first). It also holds the slice's lease: one
 *   worker works a slice at a time (the page records carry no lease of their own). A slice a
 *   retake wrote for an admission an earlier delivery committed (`keep`) is not deleted when
 *   finished but emptied to a tombstone (`fin`): that delivery, if it only stalled, may still
 *   write the very same slice "if absent" on waking, and the tombstone makes that write fail
 *   instead of making the finished slice again. Tombstones are few (one per such slice of a
 *   retake) and every reader of slices passes over them.
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
 * costs one conditional put per new URL, one write per page and a few calls per batch of pages.
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
  /** Where the item is stored when it is not inline: a blob of its own, or with `item_at` one of its batch's items. */
  item_blob?: string;
  /** The item's index in `item_blob` when that blob holds a batch's items (a JSON array). */
  item_at?: number;
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

/**
 * The delivery's slice was retaken by another delivery (this one stalled past its lease without
 * dying): it stops without numbering a URL or counting a page. Its message, a duplicate of the
 * retaker's, finds the slice leased or gone.
 */
export class SliceFencedError extends Error {
  constructor(sliceId: string) {
    super(`slice ${sliceId} was taken over by another delivery (its lease ran out while this one stalled); this delivery stops`);
    this.name = 'SliceFencedError';
  }
}

/** The delivery working a slice: its writes of `STATE` hold only while no retake has fenced it (see {@link CrawlFrontier.fence}). */
export interface SliceHolder {
  sliceId: string;
  holder: string;
}
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
export type SliceStep = 'ledger' | 'claims' | 'reserve' | 'commit' | 'fetch' | 'records' | 'sent';
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

/** A candidate URL as a ledger holds it. */
export interface StagedUrl {
  url: string;
  depth: number;
  via?: 'sitemap';
}

/** An admission being staged over several batches of a slice ({@link CrawlFrontier.stage}), not yet closed. */
export interface OpenAdmission {
  ledger: string;
  urls: StagedUrl[];
  /** The ledger's URLs' bytes, as {@link ADMIT_MAX_BYTES} counts them. */
  bytes: number;
}

/** What {@link CrawlFrontier.admit} returns: the URLs it numbered, and its ledger. */
export interface Admission {
  urls: FrontierUrl[];
  /**
   * The admission's ledger: once the slices carrying `urls` are recorded, {@link CrawlFrontier.settle}
   * it. Null when there was nothing to admit (no ledger written).
   */
  ledger: string | null;
}

/** Pages of a slice counted in `STATE` so far: done, failed, skipped. */
export interface PageCounts {
  done: number;
  failed: number;
  skipped: number;
}

/** The `STATE` attribute holding the ordinals a ledger reserved. */
const reservedAttr = (ledger: string) => `rsv_${ledger.replace('#', '_')}`;
/** The `STATE` attribute holding the pages of a slice already counted. */
const countedAttr = (sliceId: string) => `cnt_${ownId(sliceId)}`;
/** The `STATE` attribute holding the first ordinal of a ledger's reservation, once committed. */
const committedAttr = (ledger: string) => `com_${ledger.replace('#', '_')}`;
/** The `STATE` attribute naming the delivery that retook a slice last (the fence). */
const fenceAttr = (sliceId: string) => `own_${ownId(sliceId)}`;
/** When a fence may go: no delivery it fenced can be alive (a worker invocation lives 15 minutes at most). */
const fenceEndAttr = (sliceId: string) => `owt_${ownId(sliceId)}`;
const FENCE_KEEP_MS = 30 * 60_000;
/** The fence attributes of `STATE` whose time is over (to remove with a later update). */
function expiredFences(state: Record<string, unknown>, now: Date): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(state)) if (k.startsWith('owt_') && Number(v) < now.getTime()) out.push(k, `own_${k.slice(4)}`);
  return out;
}
/** A condition that holds while no delivery but `h` has fenced its slice, and'ed with `base`. */
function fenced(h: SliceHolder | undefined, base?: Condition): Condition | undefined {
  if (!h) return base;
  const f = { expression: '(attribute_not_exists(#own) OR #own = :own)', names: { '#own': fenceAttr(h.sliceId) }, values: { ':own': h.holder } };
  if (!base) return f;
  return { expression: `(${base.expression}) AND ${f.expression}`, names: { ...base.names, ...f.names }, values: { ...base.values, ...f.values } };
}

/**
 * `STATE` attributes to remove with this process's next update of a crawl's `STATE` (a ledger's
 * reservation once the ledger is deleted, a slice's counts once its record is deleted): they ride
 * along with a write made anyway, instead of costing one each. A process that dies leaves its few
 * behind; they are a few bytes each and are never read again.
 */
const toRemove = new Map<string, Set<string>>();

export class CrawlFrontier {
  private readonly pk: string;
  /** max_pages, once read: lets {@link reserve} try its update without reading the counters first. */
  private maxPages: number | undefined;
  /** True once the budget is known to be spent (it is never given back): admissions then write nothing. */
  private exhausted = false;

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

  /** The table key of the page record with ordinal `ord` (its outcome and, once done, its item). */
  pageKey(ord: number) {
    return { pk: this.pk, sk: `ORD#${pad(ord)}` };
  }

  private sliceKey(sliceId: string) {
    return { pk: this.pk, sk: `SLICE#${sliceId}` };
  }

  private claimKey(url: string) {
    return { pk: this.pk, sk: `URL#${urlHash(url)}` };
  }

  private ledgerKey(ledger: string) {
    return { pk: this.pk, sk: `LEDGER#${ledger}` };
  }

  /** Attributes waiting for removal from `STATE` (see {@link toRemove}), taken for one update. */
  private takeRemovals(): string[] {
    const set = toRemove.get(this.pk);
    if (!set?.size) return [];
    toRemove.delete(this.pk);
    return [...set];
  }

  /** Put attributes back in line for removal (the update that carried them did not happen). */
  private queueRemovals(attrs: string[]) {
    if (!attrs.length) return;
    if (toRemove.size > 1_000) toRemove.clear();
    const set = toRemove.get(this.pk) ?? new Set<string>();
    for (const a of attrs) set.add(a);
    toRemove.set(this.pk, set);
  }

  /** An update of `STATE` that also removes the attributes waiting for it; they wait again if it fails. */
  private async updateState(spec: UpdateSpec): Promise<Item> {
    const remove = this.takeRemovals().filter((a) => !(spec.set && a in spec.set) && !spec.remove?.includes(a));
    try {
      return await this.table.update<Item>(this.stateKey(), remove.length ? { ...spec, remove: [...(spec.remove ?? []), ...remove] } : spec);
    } catch (err) {
      this.queueRemovals(remove);
      throw err;
    }
  }

  /** Note counters read elsewhere (a cache): the budget, and whether it is spent. */
  noteCounters(c: FrontierCounters): void {
    this.maxPages = c.max_pages;
    if (c.admitted >= c.max_pages) this.exhausted = true;
  }

  /**
   * Create the frontier and admit its seeds (the start URL first, at depth 0; other seeds, such as
   * a sitemap's URLs, at the depth the caller gives); returns the first slices. Idempotent: a
   * second call (a redelivered start message, or one after a crash half-way) finishes what the
   * first left unsettled, admits nothing twice and returns every start slice not yet finished
   * (ids `start#<first ordinal>`), so each record and message exists at least once.
   */
  async init(seeds: string | { url: string; depth: number }[], maxPages: number, now: Date): Promise<SliceRef[]> {
    const list = typeof seeds === 'string' ? [{ url: seeds, depth: 0 }] : seeds;
    try {
      await this.table.put(
        { ...this.stateKey(), admitted: 0, next_ord: 0, done: 0, failed: 0, skipped: 0, max_pages: maxPages, started_at: now.toISOString(), finished_at: null },
        { condition: { expression: 'attribute_not_exists(pk)' } },
      );
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
    this.maxPages ??= maxPages;
    const startSlices = (urls: FrontierUrl[]) => chunks(urls, SLICE_MAX_URLS).map((c) => this.sliceRecord('start', c, pad(c[0]!.ord)));
    // A start that died half-way: its unsettled admissions are finished first.
    const recorded = await this.sentBy('start');
    const carried = new Set(recorded.flatMap((s) => s.urls.map((u) => u.url)));
    for (const l of await this.unsettled('start', recorded)) {
      // Start slices are named by their first ordinal and written whole: those recorded are left as they are.
      await this.writeBatch(startSlices(l.urls.filter((u) => !carried.has(u.url))).map((s) => s.item));
      await this.settle([l.ledger]);
    }
    for (const chunk of admissionChunks(list)) {
      const { urls, ledger } = await this.admit(chunk.map((s) => ({ ...s, parent: START_PARENT })), 'start');
      if (urls.length) await this.writeBatch(startSlices(urls).map((s) => s.item));
      if (ledger) await this.settle([ledger]);
    }
    return this.sentBy('start');
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

  /** Slices recorded by slice `sliceId` and not finished (an earlier delivery's: to send again, their messages may be lost). */
  async sentBy(sliceId: string): Promise<SliceRef[]> {
    const own = ownId(sliceId);
    const out: SliceRef[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.table.query({ pk: this.pk, skBeginsWith: `SLICE#${own}#`, consistent: true, limit: 100, cursor });
      out.push(...page.items.filter((i) => !i.fin).map((i) => ({ slice_id: i.sk.slice('SLICE#'.length), urls: i.urls as FrontierUrl[] })));
      cursor = page.cursor ?? undefined;
    } while (cursor);
    return out;
  }

  /** True while any slice of this crawl is recorded and not finished. */
  async hasOpenSlices(): Promise<boolean> {
    // Tombstones of finished slices are passed over (they are few: see `SLICE#` above).
    let cursor: string | undefined;
    do {
      const page = await this.table.query({ pk: this.pk, skBeginsWith: 'SLICE#', consistent: true, limit: 10, cursor });
      if (page.items.some((i) => !i.fin)) return true;
      cursor = page.cursor ?? undefined;
    } while (cursor);
    return false;
  }

  async counters(consistent = true): Promise<FrontierCounters | undefined> {
    const s = await this.table.get(this.stateKey(), { consistent });
    if (!s) return undefined;
    this.maxPages = Number(s.max_pages);
    return stripKey<FrontierCounters>(s);
  }

  /**
   * Admit `candidates` (already normalised and filtered by the caller) found by slice `from`: each
   * URL not seen before gets a de-duplication claim and an ordinal, up to the run's max_pages in
   * total across every worker. Returns the URLs numbered, in the order given, and the admission's
   * ledger, to {@link settle} once the slices carrying them are recorded. At most one of
   * {@link admissionChunks}' chunks at a time (the ledger holds them all).
   *
   * Steps, each safe to die (or stall) after: (1) the ledger: the candidates, under the slice's
   * id, then (with `holder`) the admission counted on `STATE` while the slice is not fenced; (2)
   * claim each new URL (a conditional put naming the ledger: the table decides between racing
   * workers); (3) reserve ordinals for the claims won on `STATE`, noting the reservation there
   * under the ledger's name (one conditional update: a second reservation for the same ledger
   * cannot happen); (4) commit it: its first ordinal on `STATE`; (5, the caller) the slices
   * carrying the URLs ({@link recordLedgerSlices}), then the ledger's deletion. A retake of the
   * slice finds the ledger and finishes from the step reached ({@link unsettled}). Steps 1, 3 and
   * 4 hold only while `holder` is not fenced ({@link fence}): a delivery that stalled past its
   * lease and was retaken claims and numbers nothing after waking up (SliceFencedError).
   */
  async admit(candidates: Candidate[], from: string, holder?: string): Promise<Admission> {
    const open = await this.stage(null, candidates, from);
    return open ? this.close(open, from, holder) : { urls: [], ledger: null };
  }

  /**
   * Step 1 of {@link admit}, over several batches of one slice: the candidates not seen before go
   * into the slice's open admission's ledger (written when it opens, appended to after; the
   * append holds only while the ledger exists, so a delivery whose ledger a retake settled stops
   * with SliceFencedError). Returns the open admission (null while nothing was staged). A batch's
   * candidates are staged before its pages' outcomes are written, so a retake that skips those
   * pages finds their links in the ledger. At most {@link ADMIT_MAX} URLs and
   * {@link ADMIT_MAX_BYTES} bytes: the caller {@link close}s it first when `fits` says no.
   */
  async stage(open: OpenAdmission | null, candidates: Candidate[], from: string): Promise<OpenAdmission | null> {
    if (this.exhausted) return open;
    const known = knownClaimed.get(this.pk);
    const seen = new Set(open?.urls.map((c) => c.url));
    const add: StagedUrl[] = [];
    let bytes = 0;
    for (const c of candidates) {
      if (seen.has(c.url) || known?.has(c.url) || c.url.length > MAX_URL_LENGTH) continue;
      seen.add(c.url);
      add.push({ url: c.url, depth: c.depth, ...(c.via ? { via: c.via } : {}) });
      bytes += Buffer.byteLength(c.url) + 32;
    }
    if (!add.length) return open;
    if (!open) {
      const ledger = `${ownId(from)}#${randomBytes(6).toString('base64url')}`;
      await this.table.put({ ...this.ledgerKey(ledger), urls: add });
      return { ledger, urls: add, bytes };
    }
    try {
      await this.table.update(this.ledgerKey(open.ledger), { append: { urls: add }, condition: { expression: 'attribute_exists(pk)' } });
    } catch (err) {
      if (err instanceof ConditionFailedError) throw new SliceFencedError(from);
      throw err;
    }
    return { ledger: open.ledger, urls: [...open.urls, ...add], bytes: open.bytes + bytes };
  }

  /**
   * Steps 1 (the count) to 4 of {@link admit} for an admission staged with {@link stage}: returns
   * the URLs it numbered and its ledger, to {@link settle} once the slices carrying them are
   * recorded ({@link recordLedgerSlices}).
   */
  async close(open: OpenAdmission, from: string, holder?: string): Promise<Admission> {
    const { ledger } = open;
    const unique = open.urls;
    const h = holder === undefined ? undefined : { sliceId: from, holder };
    if (h) {
      // While the slice is not fenced, the admission counted on `STATE` before its claims: a
      // delivery that a retake fenced claims nothing (the retake may have read the slice's
      // ledgers before this one was written, and would never number what it claimed). One whose
      // count made it in wrote its ledger before the fence, so the retake finds it and finishes
      // its claims.
      try {
        await this.updateState({ add: { admissions: 1 }, condition: fenced(h) });
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
        // The ledger stays: the retake may not have read it yet (it reads the pages recorded,
        // then the ledgers). One it never reads belongs to pages it fetched again itself.
        throw new SliceFencedError(from);
      }
    }
    await this.fault?.('ledger');
    // 2. Claims, at most CLAIMS_IN_FLIGHT at a time: a batch's few hundred conditional puts sent at
    // once would queue every other caller's table call behind them (the table and the process).
    const won = await mapLimit(unique, CLAIMS_IN_FLIGHT, (c) => this.claim(c.url, ledger));
    await this.fault?.('claims');
    const urls = await this.number(ledger, unique.filter((_, i) => won[i]), h, true);
    await this.fault?.('commit');
    return { urls, ledger };
  }

  /** Claim a URL for ledger `ledger`: true when this call created the claim. */
  private async claim(url: string, ledger: string): Promise<boolean> {
    try {
      await this.table.put({ ...this.claimKey(url), url, by: ledger }, { condition: { expression: 'attribute_not_exists(pk)' } });
      return true;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      return false;
    } finally {
      remember(this.pk, url);
    }
  }

  /**
   * 3. Ordinals for a ledger's claims, in ledger order, within max_pages (those past the budget stay
   * claimed and unnumbered), then their commit: the first ordinal noted on `STATE` under the
   * ledger's name, before any slice carrying them is written. Both writes hold only while `h`'s
   * slice is not fenced: a delivery that stalled past its lease numbers nothing once it is retaken.
   */
  private async number(ledger: string, ours: { url: string; depth: number; via?: 'sitemap' }[], h?: SliceHolder, steps = false): Promise<FrontierUrl[]> {
    if (!ours.length) return [];
    const range = await this.reserve(ours.length, reservedAttr(ledger), h);
    if (!range) return [];
    if (steps) await this.fault?.('reserve');
    try {
      await this.updateState({ set: { [committedAttr(ledger)]: range.first }, condition: fenced(h) });
    } catch (err) {
      if (err instanceof ConditionFailedError) throw new SliceFencedError(h!.sliceId);
      throw err;
    }
    return numbered(ours.slice(0, range.last - range.first + 1), range.first);
  }

  /**
   * Retake of slice `sliceId` by `holder`: from now on no other delivery of it writes `STATE`
   * (its reservations, commits and counts are conditional on this), so what an earlier delivery
   * that stalled without dying does after waking up cannot number a URL again or count a page
   * twice. Called before the retake reads what the earlier delivery left.
   */
  async fence(sliceId: string, holder: string, now: Date): Promise<void> {
    await this.updateState({ set: { [fenceAttr(sliceId)]: holder, [fenceEndAttr(sliceId)]: now.getTime() + FENCE_KEEP_MS } });
  }

  /** Throws {@link SliceFencedError} when a retake of slice `sliceId` fenced `holder` out (one read of `STATE`). */
  async assertHolds(sliceId: string, holder: string): Promise<void> {
    const s = await this.table.get(this.stateKey(), { consistent: true });
    const own = s?.[fenceAttr(sliceId)];
    if (own !== undefined && own !== holder) throw new SliceFencedError(sliceId);
  }

  /**
   * Record the slices carrying the URLs admission `ledger` numbered, under ids derived from the
   * ledger (`<from>#<ledger id>.<k>`), each only if absent: the delivery that numbered them and a
   * retake that adopted its commit write the same records, and the second finds them written.
   * Returns every slice, to send (a duplicate message finds its slice leased or gone). `retake`:
   * written by a retake, for an earlier delivery's admission (finishing these leaves a tombstone).
   */
  async recordLedgerSlices(from: string, ledger: string, urls: FrontierUrl[], opts: { retake?: boolean } = {}): Promise<SliceRef[]> {
    const id = ledger.slice(ledger.lastIndexOf('#') + 1);
    const slices = chunks(urls, SLICE_MAX_URLS).map((c, k) => this.sliceRecord(from, c, `${id}.${k}`));
    await mapLimit(slices, CLAIMS_IN_FLIGHT, async (x) => {
      try {
        // Written by a retake: the earlier delivery may still write it once it wakes, so finishing
        // it leaves a tombstone (see `SLICE#` above) for that write to find.
        await this.table.put(opts.retake ? { ...x.item, keep: true } : x.item, { condition: { expression: 'attribute_not_exists(pk)' } });
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
      }
    });
    return slices.map((x) => x.ref);
  }

  /**
   * Admissions an earlier delivery of slice `sliceId` left unsettled (it died, or stalled past its
   * lease, between writing a ledger and deleting it), each finished now by `holder`, whose retake
   * has {@link fence}d the slice first, so the earlier delivery can no longer reserve or commit:
   * - a committed reservation is adopted: the URLs come back with the ordinals it committed, to be
   *   recorded with {@link recordLedgerSlices} (the same slices the earlier delivery writes, if it
   *   wakes up: each is written once);
   * - a reservation not committed is given back (once: the removal of its `STATE` attribute is the
   *   condition) and its URLs numbered afresh;
   * - with no reservation, the claims the earlier delivery did not get to are made (a claim it
   *   made meanwhile is found by reading the claims again), then its URLs are numbered.
   * `recorded`: the slices recorded by the sending slice (from {@link sentBy}). Returns, per ledger,
   * the numbered URLs to record (`byLedger`: with {@link recordLedgerSlices}; otherwise those no
   * recorded slice carries, to record as free slices: what a delivery of a version before commits
   * left). The caller records them, then settles the ledger. Reads only these ledgers and their
   * claims: a crash costs work in proportion to what it interrupted.
   */
  async unsettled(sliceId: string, recorded: SliceRef[], holder?: string): Promise<{ ledger: string; urls: FrontierUrl[]; byLedger: boolean }[]> {
    const own = ownId(sliceId);
    const h = holder === undefined ? undefined : { sliceId, holder };
    const ledgers: Item[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.table.query({ pk: this.pk, skBeginsWith: `LEDGER#${own}#`, consistent: true, limit: 25, cursor });
      ledgers.push(...page.items);
      cursor = page.cursor ?? undefined;
    } while (cursor);
    if (!ledgers.length) return [];
    const carried = new Map<string, number>();
    for (const s of recorded) for (const u of s.urls) carried.set(u.url, u.ord);
    const out: { ledger: string; urls: FrontierUrl[]; byLedger: boolean }[] = [];
    for (const l of ledgers) {
      const ledger = l.sk.slice('LEDGER#'.length);
      const cands = l.urls as { url: string; depth: number; via?: 'sitemap' }[];
      const state = (await this.table.get(this.stateKey(), { consistent: true }))!;
      this.maxPages = Number(state.max_pages);
      const reserved = state[reservedAttr(ledger)] as number | undefined;
      const committed = state[committedAttr(ledger)] as number | undefined;
      const claimsBy = async () => new Map((await this.table.batchGet(cands.map((c) => this.claimKey(c.url)), { consistent: true })).map((c) => [String(c.url), c]));
      let claims = await claimsBy();
      let ours = cands.filter((c) => claims.get(c.url)?.by === ledger);
      if (reserved !== undefined && committed !== undefined) {
        // Committed: its slices may be written already, or be written by the delivery that
        // committed it if it wakes up; either way the same ones.
        out.push({ ledger, urls: numbered(ours.slice(0, reserved), committed), byLedger: true });
        continue;
      }
      if (committed !== undefined) continue; // settled meanwhile (its reservation's attribute went with the ledger)
      if (reserved !== undefined) {
        // A version before commits recorded slices for its URLs without one: one URL carried by a
        // recorded slice tells every ordinal (handed out in ledger order from the first).
        const hit = ours.findIndex((c) => carried.has(c.url));
        if (hit >= 0) {
          const urls = numbered(ours.slice(0, reserved), carried.get(ours[hit]!.url)! - hit);
          out.push({ ledger, urls: urls.filter((u) => !carried.has(u.url)), byLedger: false });
          continue;
        }
        // Not committed, and the fence keeps it so: no slice carries these ordinals. Give them back
        // (once) and number afresh.
        await this.updateState({
          add: { admitted: -reserved },
          remove: [reservedAttr(ledger)],
          condition: fenced(h, { expression: 'attribute_exists(#r) AND attribute_not_exists(#c)', names: { '#r': reservedAttr(ledger), '#c': committedAttr(ledger) } }),
        }).catch((err) => {
          if (!(err instanceof ConditionFailedError)) throw err;
        });
        this.exhausted = false;
        const after = await this.table.get(this.stateKey(), { consistent: true });
        if (after?.[committedAttr(ledger)] !== undefined || after?.[reservedAttr(ledger)] !== undefined) {
          if (h && after?.[fenceAttr(sliceId)] !== holder) throw new SliceFencedError(sliceId);
          throw new Error(`ledger ${ledger}: its reservation changed while it was given back`);
        }
      } else {
        // Died (or stalled) before reserving: it may not have made every claim either. Once every
        // candidate is claimed, the claims naming this ledger are final: read them again.
        const missing = cands.filter((c) => !claims.has(c.url));
        if (missing.length) {
          await mapLimit(missing, CLAIMS_IN_FLIGHT, (c) => this.claim(c.url, ledger));
          claims = await claimsBy();
          ours = cands.filter((c) => claims.get(c.url)?.by === ledger);
        }
      }
      out.push({ ledger, urls: await this.number(ledger, ours, h), byLedger: true });
    }
    return out;
  }

  /**
   * The slices carrying these ledgers' URLs are recorded: delete the ledgers. Their reservations'
   * `STATE` attributes go with this process's next update of `STATE` (after the deletion, never
   * before: a ledger without its reservation would be numbered again).
   */
  async settle(ledgers: (string | null)[]): Promise<void> {
    const list = ledgers.filter((l): l is string => !!l);
    await Promise.all(list.map((l) => this.table.delete(this.ledgerKey(l))));
    this.queueRemovals(list.flatMap((l) => [reservedAttr(l), committedAttr(l)]));
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
          expression: 'attribute_exists(pk) AND attribute_not_exists(fin) AND (attribute_not_exists(lease_until) OR lease_until < :now OR lease_holder = :me)',
          values: { ':now': now.getTime(), ':me': holder },
        },
      });
      return { state: 'taken', retaken: Number(after.leases) > 1 };
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
    const cur = await this.table.get(key, { consistent: true });
    if (!cur || cur.fin) return { state: 'gone' };
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

  /**
   * Add page counts to the crawl's counters (a slice's progress before it finishes); returns the
   * counters after. `total`: every page of slice `sliceId` counted once this update is made, kept
   * on `STATE` with it (one update), so a retake after a crash counts only the pages not in it.
   */
  async addCounts(sliceId: string, add: Record<string, number>, total: PageCounts, holder?: string): Promise<FrontierCounters> {
    const counts = Object.fromEntries(Object.entries(add).filter(([, v]) => v !== 0));
    if (!Object.keys(counts).length) return (await this.counters(true))!;
    try {
      return stripKey<FrontierCounters>(
        await this.updateState({ add: counts, set: { [countedAttr(sliceId)]: [total.done, total.failed, total.skipped] }, condition: fenced(holder === undefined ? undefined : { sliceId, holder }) }),
      );
    } catch (err) {
      if (err instanceof ConditionFailedError) throw new SliceFencedError(sliceId);
      throw err;
    }
  }

  /** Pages of slice `sliceId` already counted in `STATE` by an earlier delivery (see {@link addCounts}). */
  async counted(sliceId: string): Promise<PageCounts> {
    const s = await this.table.get(this.stateKey(), { consistent: true });
    const c = (s?.[countedAttr(sliceId)] as number[] | undefined) ?? [0, 0, 0];
    return { done: Number(c[0] ?? 0), failed: Number(c[1] ?? 0), skipped: Number(c[2] ?? 0) };
  }

  /** The recorded states of some pages (a retaken slice skips those an earlier delivery recorded); absent: still to crawl. */
  async states(ords: number[]): Promise<Map<number, PageState>> {
    const out = new Map<number, PageState>();
    for (const p of await this.table.batchGet(ords.map((o) => this.pageKey(o)), { consistent: true })) out.set(Number(p.ord), p.state as PageState);
    return out;
  }

  /** Reserve up to `n` ordinals within max_pages, noted as `attr` on `STATE`: [first, last], or null when the budget is spent. */
  private async reserve(n: number, attr: string, h?: SliceHolder): Promise<{ first: number; last: number } | null> {
    // Usually there is room for all n: one conditional update, no read.
    if (this.maxPages !== undefined) {
      const range = await this.tryReserve(n, this.maxPages, attr, h);
      if (range) return range;
    }
    for (let attempt = 0; attempt < 20; attempt++) {
      const s = await this.counters(true);
      if (!s) throw new Error(`crawl frontier ${this.runId} is not initialised`);
      const rec = s as unknown as Record<string, unknown>;
      if (h && rec[fenceAttr(h.sliceId)] !== undefined && rec[fenceAttr(h.sliceId)] !== h.holder) throw new SliceFencedError(h.sliceId);
      if (rec[attr] !== undefined) throw new Error(`ledger reservation ${attr} was made twice`);
      const room = s.max_pages - s.admitted;
      if (room <= 0) {
        this.exhausted = true;
        return null;
      }
      const range = await this.tryReserve(Math.min(n, room), s.max_pages, attr, h);
      if (range) {
        if (range.last - range.first + 1 < n) this.exhausted = true;
        return range;
      }
    }
    return null;
  }

  /** Take `take` ordinals if that keeps `admitted` within `maxPages`; null when another worker got there first. */
  private async tryReserve(take: number, maxPages: number, attr: string, h?: SliceHolder): Promise<{ first: number; last: number } | null> {
    try {
      const after = await this.updateState({
        add: { admitted: take, next_ord: take },
        set: { [attr]: take },
        condition: fenced(h, { expression: 'admitted <= :limit AND attribute_not_exists(#r)', names: { '#r': attr }, values: { ':limit': maxPages - take } }),
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
   * and sent. First adds the slice's counts (`add`: pages done, failed, skipped; request stats)
   * with `total` (every page of the slice counted, see {@link addCounts}) in one update, then
   * deletes its record. When no slice is left open the crawl is over: `finished` is true for
   * exactly one caller, whose conditional write sets `finished_at`. A delivery of a slice already
   * finished, or of one another delivery (`holder`) has taken over, changes nothing; one that died
   * between the two writes is retaken and finds every page counted. Nothing here reads more than the slice's own records.
   */
  async finishSlice(sliceId: string, now: Date, add: Record<string, number> = {}, total?: PageCounts, holder?: string): Promise<{ finished: boolean; counters: FrontierCounters }> {
    // Finished before (a duplicate delivery), or taken over by another delivery after this one's
    // lease ran out: that one counts the pages (one consistent read of a small record).
    const rec = await this.table.get(this.sliceKey(sliceId), { consistent: true });
    if (!rec || rec.fin || (holder !== undefined && rec.lease_holder !== undefined && rec.lease_holder !== holder)) return { finished: false, counters: (await this.counters(true))! };
    const counts = Object.fromEntries(Object.entries(add).filter(([, v]) => v !== 0));
    const attr = countedAttr(sliceId);
    const counted = total && total.done + total.failed + total.skipped > 0;
    let counters: FrontierCounters | undefined;
    if (Object.keys(counts).length || counted) {
      try {
        counters = stripKey<FrontierCounters>(
          await this.updateState({ add: counts, ...(counted ? { set: { [attr]: [total.done, total.failed, total.skipped] } } : {}), condition: fenced(holder === undefined ? undefined : { sliceId, holder }) }),
        );
      } catch (err) {
        // Retaken after the read above (this delivery stalled): the retake counts the pages.
        if (err instanceof ConditionFailedError) return { finished: false, counters: (await this.counters(true))! };
        throw err;
      }
    }
    const gone = rec.keep ? await this.tombstone(sliceId) : await this.table.delete(this.sliceKey(sliceId));
    // The slice's counts are no longer needed by any retake once its record is gone. (Its fence
    // stays: a delivery it fenced may still wake up. Fences go once no delivery can be alive.)
    if (gone && counted) this.queueRemovals([attr]);
    counters ??= (await this.counters(true))!;
    this.queueRemovals(expiredFences(counters as unknown as Record<string, unknown>, now));
    if (!gone || counters.finished_at || (await this.hasOpenSlices())) return { finished: false, counters };
    try {
      const after = await this.updateState({
        set: { finished_at: now.toISOString() },
        condition: { expression: 'finished_at = :null', values: { ':null': null } },
      });
      return { finished: true, counters: stripKey<FrontierCounters>(after) };
    } catch (err) {
      if (err instanceof ConditionFailedError) return { finished: false, counters };
      throw err;
    }
  }

  /** Empty a finished slice's record to a tombstone (see `SLICE#` above); true for the one caller that did. */
  private async tombstone(sliceId: string): Promise<boolean> {
    try {
      await this.table.update(this.sliceKey(sliceId), {
        set: { fin: 1 },
        remove: ['urls', 'lease_until', 'lease_holder', 'keep'],
        condition: { expression: 'attribute_exists(pk) AND attribute_not_exists(fin)' },
      });
      return true;
    } catch (err) {
      if (err instanceof ConditionFailedError) return false;
      throw err;
    }
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
  outcomeRecord(u: FrontierUrl, outcome: { state: Exclude<PageState, 'queued'>; item?: unknown; item_blob?: string; item_at?: number; error?: string }, now: Date): Item {
    const rec: Item = { ...this.pageKey(u.ord), url: u.url, depth: u.depth, ord: u.ord, state: outcome.state, finished_at: now.toISOString() };
    if (outcome.item !== undefined) rec.item = outcome.item;
    if (outcome.item_blob) rec.item_blob = outcome.item_blob;
    if (outcome.item_at !== undefined) rec.item_at = outcome.item_at;
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

/** Candidates one admission takes at most. */
export const ADMIT_MAX = 500;
/** Bytes of URLs one admission takes at most: its ledger stays well below DynamoDB's 400 KB item limit. */
export const ADMIT_MAX_BYTES = 200 * 1024;
/**
 * Longer URLs are not crawled (the sitemap protocol's limit): every record holding URLs (a ledger
 * of up to 500, a slice of up to 50, a claim) then has a bound well inside DynamoDB's item limit.
 */
export const MAX_URL_LENGTH = 2048;

/** Whether `candidates` fit in the open admission's ledger (else close it and open another). */
export function admissionFits(open: OpenAdmission | null, candidates: { url: string }[]): boolean {
  if (!open) return true;
  let bytes = 0;
  for (const c of candidates) bytes += Buffer.byteLength(c.url) + 32;
  return open.urls.length + candidates.length <= ADMIT_MAX && open.bytes + bytes <= ADMIT_MAX_BYTES;
}

/** Candidates in admissions of at most {@link ADMIT_MAX} URLs and {@link ADMIT_MAX_BYTES} bytes, those over {@link MAX_URL_LENGTH} left out. */
export function admissionChunks<T extends { url: string }>(candidates: T[]): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let bytes = 0;
  for (const c of candidates) {
    if (c.url.length > MAX_URL_LENGTH) continue;
    const b = Buffer.byteLength(c.url) + 32;
    if (cur.length && (cur.length >= ADMIT_MAX || bytes + b > ADMIT_MAX_BYTES)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(c);
    bytes += b;
  }
  if (cur.length) out.push(cur);
  return out;
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

/** Candidates numbered in order from `first`. */
const numbered = (cands: { url: string; depth: number; via?: 'sitemap' }[], first: number): FrontierUrl[] =>
  cands.map((c, i) => ({ url: c.url, depth: c.depth, ord: first + i, ...(c.via ? { via: c.via } : {}) }));

const chunks = <T>(a: T[], n: number): T[][] => Array.from({ length: Math.ceil(a.length / n) }, (_, i) => a.slice(i * n, (i + 1) * n));

/** The frontier of a run's attempt: a retried start (new attempt) crawls afresh in its own partition. */
export const frontierFor = (table: Table, run: { tenant_id: string; id: string; attempt: number }, fault?: FaultHook) => new CrawlFrontier(table, run.tenant_id, `${run.id}#a${run.attempt}`, fault);
