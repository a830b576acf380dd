import type { Item } from '../../ports/table.js';
import type { Blobs } from '../../ports/blobs.js';
import type { Queue } from '../../ports/queue.js';
import type { Table } from '../../ports/table.js';
import { log } from '../log.js';
import { AppError } from '../errors.js';
import { isTooComplex } from '../limits/budget.js';
import { compareBudgeted, type CompareInput, type CompareOutput } from './compare-budgeted.js';
import { tagOf, type ChangeOptions } from './change-options.js';
import { pageKeyUrl } from '../freshness/page-key-url.js';
import { newChangeId, SnapshotStore, type Baseline, type ChangeRecord, type ChangeStatus } from './snapshot-store.js';
import type { FieldChange } from './field-diff.js';
import { watchedChanged } from './watch.js';

/** API.md `change`: what an item's data (or a scrape's result) carries. */
export interface ChangeView {
  status: ChangeStatus;
  previous_fetched_at: string | null;
  diff: string | null;
  added_lines: number;
  removed_lines: number;
  fields: Record<string, FieldChange> | null;
}

/** API.md run `stats.changes`. */
export type ChangeCounts = Record<ChangeStatus, number>;
export const zeroCounts = (): ChangeCounts => ({ new: 0, same: 0, changed: 0, removed: 0, unavailable: 0 });

/** One fetch of a page as change tracking sees it. */
export interface TrackedPage {
  /** The URL asked for (normalised here): the baseline's identity. */
  url: string;
  /**
   * The engine asked for: with `browser` or `auto` (absent: `http`) the URL's fragment is part of
   * the identity, since the page's script may route on it (a single-page app's `#/a` and `#/b`).
   */
  engine?: string;
  fetched_at: string;
  status_code: number;
  /** Could not be read: a challenge, a robots skip, a time-out or network error. */
  unavailable?: boolean;
  markdown: string | null;
  /** `{ json?, extracted? }` or css-extract's records; null when none. */
  structured: unknown;
}

/** What a change tracker needs from the runtime. */
export interface TrackerDeps {
  table: Table;
  blobs: Blobs;
  queue: Queue;
  clock: { now(): Date };
}

export interface TrackerContext {
  tenantId: string;
  options?: ChangeOptions;
  runId: string | null;
  jobId: string | null;
  /** A site crawl: its scope (start URL and filters, hashed) and run, to mark the pages it reaches. */
  crawl?: { scope: string; runId: string };
  /** Also announce `page.changed` for `new` pages (web-search: "tell me when a new result appears"). */
  announceNew?: boolean;
}

/** A decision on one page: its view, the table items to write, the change record if any. */
interface Decision {
  view: ChangeView;
  items: Item[];
  record?: ChangeRecord;
}

/** The outcome of tracking a batch: views in input order, items to write with the caller's batch, events to send after. */
export interface TrackedBatch {
  views: ChangeView[];
  items: Item[];
  /** Send `page.changed` for the batch's changed and removed pages: call once its items are written. */
  announce(): Promise<void>;
}

const GONE = new Set([404, 410]);

/**
 * Change tracking of one run, task or crawl slice: compares each page with the tenant's baseline
 * of the same normalised URL and tag, writes a snapshot only when the page is new or changed,
 * keeps change records for history, and announces `page.changed`. Only a successful fetch (2xx,
 * no challenge) becomes a snapshot; an unreadable one is `unavailable` and leaves the baseline
 * as it was. Counts every status (run `stats.changes`).
 */
export class ChangeTracker {
  readonly counts = zeroCounts();
  readonly store: SnapshotStore;

  constructor(
    private readonly d: TrackerDeps,
    readonly ctx: TrackerContext,
  ) {
    this.store = new SnapshotStore(d.table, d.blobs, ctx.tenantId, tagOf(ctx.options));
  }

  /** The comparison on a budget thread, in the tenant's turn; undefined when it overran its budget. */
  private async compare(input: Omit<CompareInput, 'ignore_patterns'>, url: string): Promise<CompareOutput | undefined> {
    try {
      return await compareBudgeted({ ...input, ignore_patterns: this.ctx.options?.ignore_patterns }, this.ctx.tenantId);
    } catch (err) {
      if (!isTooComplex(err)) throw err;
      log.warn('change comparison over its budget: the page counts as unavailable, its baseline stays', { tenant_id: this.ctx.tenantId, url, err });
      return undefined;
    }
  }

  /** Track one page: read its baseline, decide, write, announce. */
  async track(page: TrackedPage): Promise<ChangeView> {
    const batch = await this.trackBatch([page], true);
    await this.store.writeItems(batch.items);
    await batch.announce();
    return batch.views[0];
  }

  /**
   * Track several pages with one baseline read (BatchGetItem); the table items come back for the
   * caller to write with its own batch (a crawl slice's page records), S3 is written here for new
   * and changed pages only.
   */
  async trackBatch(pages: TrackedPage[], consistent = false): Promise<TrackedBatch> {
    const urls = pages.map((p) => pageKeyUrl(p.url, p.engine ?? 'http'));
    const readable = urls.filter((_, i) => !pages[i].unavailable || this.ctx.crawl);
    const baselines = await this.store.baselines([...new Set(readable)], consistent);
    const decisions = await Promise.all(
      pages.map((p, i) =>
        this.decide({ ...p, url: urls[i] }, baselines.get(urls[i])).catch((err: unknown) => {
          // A crawl goes on past a page whose URL has no tag left (a single page's 409 reaches its caller).
          if (!(this.ctx.crawl && err instanceof AppError && err.code === 'change_tag_limit')) throw err;
          log.warn('page not tracked: its URL has no tag left', { tenant_id: this.ctx.tenantId, url: urls[i] });
          return this.unavailable(undefined);
        }),
      ),
    );
    for (const x of decisions) this.counts[x.view.status]++;
    const records = decisions.flatMap((x) => (x.record ? [x.record] : []));
    return {
      views: decisions.map((x) => x.view),
      items: decisions.flatMap((x) => x.items),
      announce: () => this.announce(records),
    };
  }

  /** Announce change records (`page.changed` for changed and removed pages). */
  async announce(records: ChangeRecord[]): Promise<void> {
    for (const r of records) {
      if (r.status === 'new' && !this.ctx.announceNew) continue;
      await this.d.queue.send('deliveries', { kind: 'page.changed', tenant_id: this.ctx.tenantId, change_id: r.change_id, ...(r.status === 'new' ? { include_new: true } : {}) }).catch((err) => log.error('page.changed event failed', { err, change_id: r.change_id }));
    }
  }

  private unavailable(b: Baseline | undefined): Decision {
    const view: ChangeView = { status: 'unavailable', previous_fetched_at: b?.fetched_at ?? null, diff: null, added_lines: 0, removed_lines: 0, fields: null };
    // The baseline stays; a crawl still marks the page as reached (it is not gone).
    return { view, items: b && this.ctx.crawl ? [this.store.baselineItem(b, this.ctx.crawl)] : [] };
  }

  private record(r: Omit<ChangeRecord, 'change_id' | 'tag' | 'run_id' | 'job_id' | 'detected_at'> & { change_id?: string }): ChangeRecord {
    return { change_id: r.change_id ?? newChangeId(), tag: this.store.tag, run_id: this.ctx.runId, job_id: this.ctx.jobId, detected_at: this.d.clock.now().toISOString(), ...r } as ChangeRecord;
  }

  /** A baseline present before is reported removed (once): a change record, and the baseline marked removed. */
  removal(b: Baseline): Decision {
    const record = this.record({ url: b.url, status: 'removed', previous_fetched_at: b.fetched_at, added_lines: 0, removed_lines: 0, fields: null, previous_key: b.snapshot_key, current_key: null });
    const view: ChangeView = { status: 'removed', previous_fetched_at: b.fetched_at, diff: null, added_lines: 0, removed_lines: 0, fields: null };
    return { view, record, items: [this.store.changeItem(record), this.store.baselineItem({ ...b, state: 'removed' })] };
  }

  private async decide(p: TrackedPage, b: Baseline | undefined): Promise<Decision> {
    const s = p.status_code;
    if (p.unavailable || !(s >= 200 && s < 300)) {
      if (!p.unavailable && GONE.has(s)) {
        if (b?.state === 'present') return this.removal(b);
        if (b?.state === 'removed') {
          // Still gone: nothing changed since it was reported (a removal is reported once).
          return { view: { status: 'same', previous_fetched_at: b.fetched_at, diff: null, added_lines: 0, removed_lines: 0, fields: null }, items: [] };
        }
      }
      return this.unavailable(b);
    }
    const version = { markdown: p.markdown, structured: p.structured ?? null };
    const prepared = await this.compare({ current: version }, p.url);
    if (!prepared) return this.unavailable(b);
    const crawl = this.ctx.crawl;
    if (b?.state === 'present' && b.hash === prepared.hash) {
      const view: ChangeView = { status: 'same', previous_fetched_at: b.fetched_at, diff: null, added_lines: 0, removed_lines: 0, fields: null };
      return { view, items: crawl ? [this.store.baselineItem(b, crawl)] : [] };
    }
    const previous = b?.state === 'present' ? await this.store.readSnapshot(b.snapshot_key) : undefined;
    if (b?.state === 'present' && previous) {
      const out = await this.compare(
        {
          previous: { markdown: previous.markdown, structured: previous.structured ?? null },
          current: version,
          labels: { previous: `${p.url}\t${previous.fetched_at}`, current: `${p.url}\t${p.fetched_at}` },
        },
        p.url,
      );
      if (!out?.comparison) return this.unavailable(b);
      const cmp = out.comparison;
      // With a watch list, only a watched value's change makes the page changed (a price drop, a restock).
      if (!cmp.changed || !watchedChanged(cmp.fields, this.ctx.options?.watch)) {
        // Same once normalised, or nothing watched moved (the hash was taken under other ignore rules): the baseline takes the new hash, no snapshot.
        const view: ChangeView = { status: 'same', previous_fetched_at: b.fetched_at, diff: null, added_lines: 0, removed_lines: 0, fields: null };
        return { view, items: [this.store.baselineItem({ ...b, hash: prepared.hash }, crawl)] };
      }
      const change_id = newChangeId();
      const key = await this.store.writeSnapshot(change_id, { url: p.url, fetched_at: p.fetched_at, status_code: s, markdown: p.markdown, structured: p.structured ?? null, diff: cmp.diff, fields: cmp.fields });
      const record = this.record({ change_id, url: p.url, status: 'changed', previous_fetched_at: b.fetched_at, added_lines: cmp.added_lines, removed_lines: cmp.removed_lines, fields: cmp.fields, previous_key: b.snapshot_key, current_key: key });
      const view: ChangeView = { status: 'changed', previous_fetched_at: b.fetched_at, diff: cmp.diff, added_lines: cmp.added_lines, removed_lines: cmp.removed_lines, fields: cmp.fields };
      const next: Baseline = { ...b, hash: prepared.hash, snapshot_key: key, fetched_at: p.fetched_at };
      return { view, record, items: [this.store.changeItem(record), this.store.baselineItem(next, crawl)] };
    }
    // No baseline (or it was removed, or its snapshot is gone): the page is new. A first baseline
    // under this tag takes one of the URL's tags (at most MAX_TAGS_PER_URL: 409 past it).
    if (!b) await this.store.admitTag(p.url);
    const change_id = newChangeId();
    const key = await this.store.writeSnapshot(change_id, { url: p.url, fetched_at: p.fetched_at, status_code: s, markdown: p.markdown, structured: p.structured ?? null });
    const record = this.record({ change_id, url: p.url, status: 'new', previous_fetched_at: null, added_lines: prepared.lines, removed_lines: 0, fields: null, previous_key: null, current_key: key });
    const next: Baseline = { url: p.url, tag: this.store.tag, state: 'present', hash: prepared.hash, snapshot_key: key, fetched_at: p.fetched_at, ...(b ? { crawl_scope: b.crawl_scope, seen_run: b.seen_run } : {}) };
    const view: ChangeView = { status: 'new', previous_fetched_at: null, diff: null, added_lines: prepared.lines, removed_lines: 0, fields: null };
    return { view, record, items: [this.store.changeItem(record), this.store.baselineItem(next, crawl)] };
  }

  /**
   * The end of a complete crawl: every page of the scope's previous crawls this crawl did not
   * reach is reported removed, once, in pages of at most 100 (one paginated query of the scope's
   * baselines, linear in their number). `emit` receives each page's item and table items.
   */
  async reportUnreached(emit: (removed: { url: string; view: ChangeView }[], items: Item[]) => Promise<void>): Promise<number> {
    const crawl = this.ctx.crawl;
    if (!crawl) return 0;
    let n = 0;
    for await (const gone of this.store.unreached(crawl.scope, crawl.runId)) {
      const decisions = gone.map((b) => ({ b, x: this.removal(b) }));
      await emit(decisions.map(({ b, x }) => ({ url: b.url, view: x.view })), decisions.flatMap(({ x }) => x.items));
      await this.announce(decisions.map(({ x }) => x.record!));
      this.counts.removed += decisions.length;
      n += decisions.length;
    }
    return n;
  }
}
