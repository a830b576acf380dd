import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { keys } from '../table-keys.js';
import { log } from '../log.js';
import { pageKeyUrl } from './page-key-url.js';
import { MAX_AGE_LIMIT_MS } from './max-age.js';
import type { Table } from '../../ports/table.js';
import type { Blobs } from '../../ports/blobs.js';

/**
 * Freshness (`max_age`): a tenant's earlier answers for one URL and one set of options, so a
 * repeated request can be answered without fetching the page again (no request to the site, no
 * page from the quota).
 *
 * Layout: a table item `TEN#<tenant> / PCACHE#<hash>` with the answer's `fetched_at`. A small
 * answer (gzipped JSON up to {@link INLINE_MAX_BYTES}) sits in that item itself (`body_gz`,
 * base64), so a cached answer is one table read and nothing else; a larger one is a JSON object in
 * the raw bucket (its lifecycle expires it) under `tenants/<tenant>/page-cache/<hash>.json` that
 * the item points at. Every write is single-item and the item stays far below DynamoDB's 400 KB
 * limit (the inline body is at most 24 KB, 32 KB as base64). The item carries
 * `expires_at` (epoch seconds, the table's TTL attribute on AWS); readers also filter on it,
 * since dynalite has no TTL. Every key starts with the tenant: one tenant can never address
 * another's answers, whatever the URL.
 */
export interface CachedAnswer<T> {
  fetched_at: string;
  value: T;
}

/** What is cached: a POST /v1/scrape answer, or a page-content item. Separate namespaces. */
export type CacheKind = 'scrape' | 'page-content';

/**
 * Request fields that do not change the answer: the URL is normalised apart, the profile is
 * keyed by what it holds (see {@link cacheKeyOf}), the rest is ignored.
 */
const NOT_OUTPUT = new Set(['url', 'timeout_ms', 'max_age', 'browser_profile']);

/** What a browser profile holds (its settings), hashed: editing a profile gives its pages new keys. */
export function profileVersion(profile: Record<string, unknown> | undefined): string | undefined {
  if (!profile) return undefined;
  const { profile_id: _i, created_at: _c, updated_at: _u, ...settings } = profile;
  return createHash('sha256').update(canonical(settings)).digest('hex');
}

/**
 * May this request be answered from (and stored to) the cache? Never with actions (what they do
 * cannot be repeated by a stored copy) nor when anything names a secret.
 */
export function cacheable(request: Record<string, unknown>): boolean {
  const actions = request.actions;
  if (Array.isArray(actions) ? actions.length > 0 : actions != null) return false;
  // Change tracking compares this fetch with the baseline: a stored copy would report a stale change.
  if (Array.isArray(request.formats) && request.formats.includes('changes')) return false;
  return !Object.keys(request).some((k) => /secret/i.test(k));
}

/** JSON with object keys sorted at every depth: equal options hash equally whatever their order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * The cache key of a request: sha256 of its kind, its page ({@link pageKeyUrl}: the fragment
 * counts where the browser may render it), what its browser profile holds (not its id: an edited
 * profile renders differently) and every other field that may change the output (a field added
 * to a request later counts by default).
 */
export function cacheKeyOf(kind: CacheKind, request: Record<string, unknown>, profile?: Record<string, unknown>): string {
  const url = pageKeyUrl(String(request.url), request.engine);
  const options: Record<string, unknown> = Object.fromEntries(Object.entries(request).filter(([k]) => !NOT_OUTPUT.has(k)));
  // A request naming a profile without its record at hand never shares a key with one that has it.
  if (request.browser_profile != null) options.browser_profile = profileVersion(profile) ?? `id:${String(request.browser_profile)}`;
  return createHash('sha256').update(canonical({ kind, url, options })).digest('hex');
}

const blobKey = (tenantId: string, hash: string) => `tenants/${tenantId}/page-cache/${hash}.json`;

/**
 * Largest gzipped answer kept inside its pointer item (24 KB: a typical article's markdown,
 * metadata and links). Reading it costs a few read units more than a bare pointer and saves an
 * object read (tens of ms on S3) on every cached answer a process has not seen yet.
 */
export const INLINE_MAX_BYTES = 24 * 1024;

/**
 * A few recent answers held in memory (parsed), keyed by tenant, hash and fetched_at. The table
 * item is still read on every request, so a hit here is exactly the answer the pointer names
 * (never a staler one, never another tenant's): it only saves the object read and its parsing.
 * Values are shared: callers copy, never mutate.
 */
class AnswerMemo {
  private entries = new Map<string, { answer: CachedAnswer<unknown>; size: number }>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}
  get(k: string): CachedAnswer<unknown> | undefined {
    const e = this.entries.get(k);
    if (!e) return undefined;
    this.entries.delete(k);
    this.entries.set(k, e);
    return e.answer;
  }
  set(k: string, answer: CachedAnswer<unknown>, size: number): void {
    if (size > this.maxBytes / 8) return;
    const old = this.entries.get(k);
    if (old) this.bytes -= old.size;
    this.entries.delete(k);
    this.entries.set(k, { answer, size });
    this.bytes += size;
    for (const [key, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= e.size;
    }
  }
}
const memo = new AnswerMemo(32 * 1024 * 1024);

/**
 * Bounded staleness for the pointer itself: a pointer read in this process is reused for at most
 * this long (keyed by tenant and hash, so never across tenants). An answer served from it is
 * still checked against the caller's max_age; at worst a fetch made elsewhere in the last second
 * is not seen yet, and the slightly older answer (still within max_age) is given instead.
 */
export const POINTER_REUSE_MS = 1000;
const pointers = new Map<string, { at: number; ptr: Record<string, unknown> | undefined }>();
const MAX_POINTERS = 10_000;

async function readPointer(table: Table, tenantId: string, hash: string): Promise<Record<string, unknown> | undefined> {
  const k = `${tenantId}/${hash}`;
  const hit = pointers.get(k);
  const now = Date.now();
  if (hit && now - hit.at <= POINTER_REUSE_MS && hit.ptr) return hit.ptr;
  const ptr = await table.get(keys.record(tenantId, 'PCACHE', hash));
  if (pointers.size >= MAX_POINTERS) pointers.clear();
  // Only found pointers are kept: a miss is read again next time (the fetch may be landing now).
  if (ptr) pointers.set(k, { at: now, ptr });
  else pointers.delete(k);
  return ptr;
}

/**
 * This tenant's answer for `hash`, when one was fetched no more than `maxAgeMs` before `now`;
 * else null. One table read, then one object read unless the same answer is already in memory.
 */
export async function readCachedAnswer<T>(d: { table: Table; blobs: Blobs }, tenantId: string, hash: string, maxAgeMs: number, now: Date): Promise<CachedAnswer<T> | null> {
  if (!(maxAgeMs > 0)) return null;
  const ptr = await readPointer(d.table, tenantId, hash);
  if (!ptr || typeof ptr.fetched_at !== 'string') return null;
  const fetched = Date.parse(ptr.fetched_at);
  if (!Number.isFinite(fetched) || now.getTime() - fetched > maxAgeMs) return null;
  if (Number(ptr.expires_at) * 1000 <= now.getTime()) return null; // no TTL on dynalite
  const remembered = memo.get(`${tenantId}/${hash}/${ptr.fetched_at}`);
  if (remembered) return remembered as CachedAnswer<T>;
  let stored: CachedAnswer<T>;
  let size: number;
  try {
    if (typeof ptr.body_gz === 'string') {
      // The answer is in the pointer item (written with it in one put: never another fetch's).
      const raw = gunzipSync(Buffer.from(ptr.body_gz, 'base64'));
      size = raw.byteLength;
      stored = JSON.parse(raw.toString('utf8')) as CachedAnswer<T>;
    } else {
      const bytes = await d.blobs.get('raw', blobKey(tenantId, hash));
      if (!bytes) return null;
      size = bytes.byteLength;
      stored = JSON.parse(Buffer.from(bytes).toString('utf8')) as CachedAnswer<T>;
    }
  } catch {
    return null;
  }
  // The object may already hold a newer answer than the pointer read (a write in between):
  // its own fetched_at is the one that counts.
  const storedAt = Date.parse(stored.fetched_at);
  if (!Number.isFinite(storedAt) || now.getTime() - storedAt > maxAgeMs) return null;
  memo.set(`${tenantId}/${hash}/${stored.fetched_at}`, stored, size);
  return stored;
}

/**
 * Keep an answer for later max_age requests. A small one goes into the pointer item itself (one
 * write); a larger one into an object first, then the pointer, so a pointer never names an object
 * that is not there. A failure is logged, never passed on: the answer the caller is giving stays
 * good without its cached copy.
 */
export async function storeCachedAnswer(d: { table: Table; blobs: Blobs }, tenantId: string, hash: string, fetchedAt: string, value: unknown): Promise<void> {
  try {
    const raw = JSON.stringify({ fetched_at: fetchedAt, value });
    const gz = gzipSync(raw);
    const inline = gz.byteLength <= INLINE_MAX_BYTES;
    if (!inline) await d.blobs.put('raw', blobKey(tenantId, hash), raw, 'application/json');
    const expires = Math.floor((Date.parse(fetchedAt) + MAX_AGE_LIMIT_MS) / 1000);
    // An older answer finishing last never replaces a newer pointer (single-item conditional write).
    await d.table.put(
      { ...keys.record(tenantId, 'PCACHE', hash), fetched_at: fetchedAt, expires_at: expires, size: raw.length, ...(inline ? { body_gz: gz.toString('base64') } : {}) },
      { condition: { expression: 'attribute_not_exists(pk) OR fetched_at <= :f', values: { ':f': fetchedAt } } },
    );
    pointers.delete(`${tenantId}/${hash}`);
  } catch (err) {
    if ((err as Error).name === 'ConditionFailedError') return;
    log.warn('page cache write failed', { err, tenant_id: tenantId });
  }
}

/**
 * Before a stored answer is served: may the page be fetched now? The tenant's current target
 * policy and robots.txt are checked as for a fetch (a cached answer never outlives either):
 * false (or a thrown refusal) and it is not served.
 */
export type AdmitCached = (url: string) => Promise<boolean>;

/** What a cached answer's key and serving need besides the request. */
export interface CacheContext {
  /** The request's browser profile record (its settings are part of the key). */
  profile?: Record<string, unknown>;
  admit: AdmitCached;
}

/** One tenant's answer cache, as a scraper sees it (ScraperContext.answers). */
export interface AnswerCache {
  /** The answer for this request, no older than its max_age; null when none (or not cacheable). */
  read<T>(kind: CacheKind, request: Record<string, unknown> & { max_age?: number }): Promise<CachedAnswer<T> | null>;
  /** Keep a successful answer (the caller checks it was a 2xx without a challenge). */
  keep(kind: CacheKind, request: Record<string, unknown>, value: unknown, fetchedAt: string): Promise<void>;
}

/** The answer cache of one tenant, bound to its stores and clock, the run's profile and its admission. */
export function tenantAnswerCache(d: { table: Table; blobs: Blobs; clock: { now(): Date } }, tenantId: string, ctx: CacheContext): AnswerCache {
  return {
    read: async <T>(kind: CacheKind, request: Record<string, unknown> & { max_age?: number }) => {
      if (!request.max_age || !cacheable(request)) return null;
      const hit = await readCachedAnswer<T>(d, tenantId, cacheKeyOf(kind, request, ctx.profile), request.max_age, d.clock.now());
      return hit && (await ctx.admit(String(request.url))) ? hit : null;
    },
    keep: async (kind, request, value, fetchedAt) => {
      if (cacheable(request)) await storeCachedAnswer(d, tenantId, cacheKeyOf(kind, request, ctx.profile), fetchedAt, value);
    },
  };
}
