import { createHash } from 'node:crypto';
import * as z from 'zod';
import { newId } from '../ids.js';
import { AppError } from '../errors.js';
import type { Item, Key, Table } from '../../ports/table.js';
import type { Blobs } from '../../ports/blobs.js';
import type { FieldChange } from './field-diff.js';

/**
 * Where change tracking keeps its state; the only module that knows these keys and prefixes.
 *
 * - Baseline (one per tenant, tag and normalised URL): `TEN#<t>#SNAP#<tag>` / `U#<url hash>`, the
 *   hash of the last snapshot's compared form, its S3 key and fetched_at. A crawl also marks the
 *   pages it reached (`seen_run`) under its scope (`gsi1pk` = `TEN#<t>#SNAPCRAWL#<tag>#<scope>`),
 *   so the pages a complete crawl no longer reaches are one paginated query away.
 * - Snapshot (S3, results bucket, kept like run results): `tenants/<t>/changes/<tag>/<url hash>/<chg id>.json`,
 *   written only when a page is new or changed.
 * - Change record (history): `TEN#<t>` / `CHG#<change_id>`, indexed by URL (`gsi1`) and by job (`gsi2`).
 * - Tag of a URL (the tags a URL has baselines under, at most {@link MAX_TAGS_PER_URL}):
 *   `TEN#<t>#SNAPTAGS#<url hash>` / `<tag>`.
 *
 * Snapshots and change records follow the tenant's retention (snapshot-retention.ts) and a
 * baseline can be dropped (`DELETE /v1/changes?url=&tag=`, {@link SnapshotStore.drop}).
 */

export const urlHash = (url: string) => createHash('sha256').update(url).digest('base64url').slice(0, 32);
const basePk = (t: string, tag: string) => `TEN#${t}#SNAP#${tag}`;
const scopePk = (t: string, tag: string, scope: string) => `TEN#${t}#SNAPCRAWL#${tag}#${scope}`;
export const changeKey = (t: string, id: string): Key => ({ pk: `TEN#${t}`, sk: `CHG#${id}` });
export const changeUrlIndex = (t: string, url: string) => `TEN#${t}#CHGURL#${urlHash(url)}`;
export const changeJobIndex = (t: string, job: string) => `TEN#${t}#CHGJOB#${job}`;
export const CHANGE_PREFIX = 'CHG#';
const tagsPk = (t: string, url: string) => `TEN#${t}#SNAPTAGS#${urlHash(url)}`;
/** Tags one URL may have baselines under (each tag is a baseline and its snapshots: issue 37 finding 7). */
export const MAX_TAGS_PER_URL = 20;
const snapshotKey = (t: string, tag: string, url: string, id: string) => `tenants/${t}/changes/${tag}/${urlHash(url)}/${id}.json`;

export const baselineSchema = z.object({
  url: z.string(),
  tag: z.string(),
  /** `present`: the last snapshot stands; `removed`: the page was reported removed (and not seen since). */
  state: z.enum(['present', 'removed']),
  hash: z.string(),
  snapshot_key: z.string(),
  fetched_at: z.string(),
  /** The crawl scope that last reached the page, and that crawl's run. */
  crawl_scope: z.string().optional(),
  seen_run: z.string().optional(),
});
export type Baseline = z.infer<typeof baselineSchema>;

export const CHANGE_STATUSES = ['new', 'same', 'changed', 'removed', 'unavailable'] as const;
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];
export const RECORDED_STATUSES = ['new', 'changed', 'removed'] as const;

export const changeRecordSchema = z.object({
  change_id: z.string(),
  url: z.string(),
  tag: z.string(),
  status: z.enum(RECORDED_STATUSES),
  detected_at: z.string(),
  previous_fetched_at: z.string().nullable(),
  added_lines: z.number().int(),
  removed_lines: z.number().int(),
  fields: z.record(z.string(), z.object({ previous: z.unknown(), current: z.unknown() })).nullable(),
  run_id: z.string().nullable(),
  job_id: z.string().nullable(),
  previous_key: z.string().nullable(),
  current_key: z.string().nullable(),
});
export type ChangeRecord = z.infer<typeof changeRecordSchema>;

/** A snapshot as kept in S3: the version, and (when it replaced another) the diff that led to it. */
export interface Snapshot {
  url: string;
  fetched_at: string;
  status_code: number;
  markdown: string | null;
  structured: unknown;
  diff?: string | null;
}

/** Field changes kept inline on a change record at most (the item limit is 400 KB); the snapshot has them all. */
const MAX_INLINE_FIELDS_BYTES = 64 * 1024;

/** The tenant's snapshots and change records of one tag. */
export class SnapshotStore {
  constructor(
    private readonly table: Table,
    private readonly blobs: Blobs,
    readonly tenantId: string,
    readonly tag: string,
  ) {}

  baselineKey(url: string): Key {
    return { pk: basePk(this.tenantId, this.tag), sk: `U#${urlHash(url)}` };
  }

  /** Baselines of these URLs (one BatchGetItem per 100), by URL. */
  async baselines(urls: string[], consistent = false): Promise<Map<string, Baseline>> {
    const out = new Map<string, Baseline>();
    if (!urls.length) return out;
    for (const it of await this.table.batchGet(urls.map((u) => this.baselineKey(u)), { consistent })) {
      const b = baselineSchema.safeParse(it);
      if (b.success) out.set(b.data.url, b.data);
    }
    return out;
  }

  async baseline(url: string): Promise<Baseline | undefined> {
    const it = await this.table.get(this.baselineKey(url), { consistent: true });
    const b = it ? baselineSchema.safeParse(it) : undefined;
    return b?.success ? b.data : undefined;
  }

  /** The baseline record to write; `crawl` marks the page reached by that crawl. */
  baselineItem(b: Baseline, crawl?: { scope: string; runId: string }): Item {
    const scope = crawl?.scope ?? b.crawl_scope;
    const seen = crawl?.runId ?? b.seen_run;
    const item: Item = { ...this.baselineKey(b.url), ...b, crawl_scope: scope, seen_run: seen };
    // Only a present page is a member of its crawl scope: a removed one is reported once.
    if (scope && b.state === 'present') Object.assign(item, { gsi1pk: scopePk(this.tenantId, this.tag, scope), gsi1sk: item.sk });
    return item;
  }

  async readSnapshot(key: string): Promise<Snapshot | undefined> {
    const raw = await this.blobs.get('results', key);
    return raw ? (JSON.parse(Buffer.from(raw).toString('utf8')) as Snapshot) : undefined;
  }

  /** Write a snapshot (a new or changed page); returns its key. */
  async writeSnapshot(changeId: string, s: Snapshot & { fields?: Record<string, FieldChange> | null }): Promise<string> {
    const key = snapshotKey(this.tenantId, this.tag, s.url, changeId);
    await this.blobs.put('results', key, JSON.stringify(s), 'application/json');
    return key;
  }

  /** A change record (history) and its table item. */
  changeItem(r: ChangeRecord): Item {
    let fields = r.fields;
    if (fields && Buffer.byteLength(JSON.stringify(fields)) > MAX_INLINE_FIELDS_BYTES) {
      // The record keeps the first values, long strings cut; the snapshot keeps them all.
      const cut = (v: unknown) => (typeof v === 'string' && v.length > 500 ? `${v.slice(0, 500)}…` : v);
      fields = Object.fromEntries(Object.entries(fields).slice(0, 50).map(([k, c]) => [k, { previous: cut(c.previous), current: cut(c.current) }]));
      if (Buffer.byteLength(JSON.stringify(fields)) > MAX_INLINE_FIELDS_BYTES) fields = null;
    }
    return {
      ...changeKey(this.tenantId, r.change_id),
      ...r,
      fields,
      gsi1pk: changeUrlIndex(this.tenantId, r.url),
      gsi1sk: r.change_id,
      ...(r.job_id ? { gsi2pk: changeJobIndex(this.tenantId, r.job_id), gsi2sk: r.change_id } : {}),
    };
  }

  /**
   * Admit this store's tag for a URL about to get its first baseline under it: at most
   * {@link MAX_TAGS_PER_URL} tags per URL, else 409 `change_tag_limit` naming the way out.
   */
  async admitTag(url: string): Promise<void> {
    const pk = tagsPk(this.tenantId, url);
    const page = await this.table.query({ pk, limit: MAX_TAGS_PER_URL + 1, consistent: true });
    if (page.items.some((i) => i.sk === this.tag)) return;
    if (page.items.length >= MAX_TAGS_PER_URL)
      throw new AppError(409, 'change_tag_limit', `${url} already has baselines under ${MAX_TAGS_PER_URL} tags (the most one URL may have); drop one with DELETE /v1/changes?url=…&tag=… or reuse a tag`, [
        { path: 'change_options.tag', message: `at most ${MAX_TAGS_PER_URL} tags per URL` },
      ]);
    await this.table.put({ pk, sk: this.tag, url, tag: this.tag });
  }

  /**
   * Drop this tag's baseline of a URL with its history: its change records, their snapshots, the
   * baseline and the tag's place among the URL's tags. The next fetch of the page is `new`.
   */
  async drop(url: string): Promise<{ baseline: boolean; changes: number; snapshots: number }> {
    let changes = 0;
    let snapshots = 0;
    let cursor: string | undefined;
    do {
      const page = await this.table.query({ index: 'gsi1', pk: changeUrlIndex(this.tenantId, url), limit: 200, cursor });
      cursor = page.cursor ?? undefined;
      for (const it of page.items) {
        const r = changeRecordSchema.safeParse(it);
        if (!r.success || r.data.tag !== this.tag || r.data.url !== url) continue;
        if (r.data.current_key) {
          await this.blobs.delete('results', r.data.current_key);
          snapshots++;
        }
        await this.table.delete(changeKey(this.tenantId, r.data.change_id));
        changes++;
      }
    } while (cursor);
    const b = await this.table.delete(this.baselineKey(url));
    const parsed = b ? baselineSchema.safeParse(b) : undefined;
    if (parsed?.success) await this.blobs.delete('results', parsed.data.snapshot_key);
    await this.table.delete({ pk: tagsPk(this.tenantId, url), sk: this.tag });
    return { baseline: Boolean(b), changes, snapshots };
  }

  /** Forget a baseline whose snapshot retention deleted (and the tag's place among the URL's tags). */
  async forgetBaseline(url: string): Promise<void> {
    await this.table.delete(this.baselineKey(url));
    await this.table.delete({ pk: tagsPk(this.tenantId, url), sk: this.tag });
  }

  async writeItems(items: Item[]): Promise<void> {
    if (items.length) await this.table.batchPut(items);
  }

  /**
   * The present baselines of a crawl scope that the crawl `runId` did not reach, a page of the
   * scope's index at a time, each confirmed by a consistent read (the index lags its writes).
   */
  async *unreached(scope: string, runId: string): AsyncGenerator<Baseline[]> {
    let cursor: string | undefined;
    do {
      const page = await this.table.query({ index: 'gsi1', pk: scopePk(this.tenantId, this.tag, scope), limit: 100, cursor });
      cursor = page.cursor ?? undefined;
      const stale = page.items.filter((i) => i.seen_run !== runId && i.state === 'present').map((i) => String(i.url));
      if (!stale.length) continue;
      const fresh = await this.baselines(stale, true);
      const gone = [...fresh.values()].filter((b) => b.state === 'present' && b.crawl_scope === scope && b.seen_run !== runId);
      if (gone.length) yield gone;
    } while (cursor);
  }
}

/** A new change id. */
export const newChangeId = () => newId('chg');
