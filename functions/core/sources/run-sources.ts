import type { SourceName } from '../../config.js';
import { connectors as defaultConnectors } from './registry.js';
import { missingCredentialsMessage } from './http-json.js';
import { SourceError, type Connector, type FetchFn, type QueryPlan, type SourceItem } from './types.js';
import { DEFAULT_RETRY_BUDGET_MS, RetryBudget } from './retry-policy.js';
import type { SourceLedger } from './source-ledger.js';
import type { TokenCache } from './token-cache.js';

/** Outcome of one source in a run (API.md results.by_source, plus timing). */
export interface SourceRunStatus {
  status: 'ok' | 'error' | 'skipped';
  count: number;
  error?: string;
  took_ms: number;
}

export interface RunSourcesOptions {
  sources: SourceName[];
  plan: QueryPlan;
  /** Result limit (1–1000); each source is asked for up to this many, the merge is cut to it. */
  limit: number;
  /** Decrypted credentials of the tenant for a source (undefined when none are stored). */
  credentialsFor: (source: SourceName) => Promise<Record<string, string> | undefined>;
  /** Base URL of the source's API (config override or the connector's default). Empty → connector default. */
  baseUrlFor: (source: SourceName) => string;
  /** The egress-guarded fetch. */
  fetch: FetchFn;
  /** Per-source time budget in ms. Default 60 000. */
  timeoutMs?: number;
  /** Sleep used for Retry-After waits; gets the source's signal. Default: an abortable setTimeout. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Connector registry (tests inject fakes). Default: the seven connectors of registry.ts. */
  connectors?: Partial<Record<SourceName, Connector>>;
  /** Aborts every source (e.g. the worker's own deadline). */
  signal?: AbortSignal;
  /** The tenant: keys the token cache (tenant-isolated). */
  tenantId?: string;
  /** The tenant's budgets (YouTube units, Instagram hashtags). */
  ledger?: SourceLedger;
  /** Graph API version of the deployment (Facebook, Instagram). */
  graphApiVersion?: string;
  /** Total time each source may spend waiting before retries in this query. Default 45 s. */
  retryBudgetMs?: number;
  /** Clock (ms) for reset headers and token expiry. Default Date.now. */
  now?: () => number;
  /** Jitter source. Default Math.random. */
  random?: () => number;
  /** Token cache (default: the process-wide one). */
  tokenCache?: TokenCache;
}

export interface RunSourcesResult {
  /** Merged, de-duplicated, newest first, at most `limit`. */
  items: SourceItem[];
  by_source: Record<string, SourceRunStatus>;
}

/** Default per-source time budget. */
export const DEFAULT_SOURCE_TIMEOUT_MS = 60_000;

/**
 * Runs the requested sources concurrently, each with its own timeout (AbortController), and merges
 * their items. A failing source never fails the others: it is reported as `error` with a message
 * meant for the user (a missing credential says how to add it). Items are de-duplicated by
 * source+id and by normalized URL, sorted newest first (ties by source, then id) and cut to `limit`.
 * Never rejects (except for programming errors in the options).
 */
export async function runSources(opts: RunSourcesOptions): Promise<RunSourcesResult> {
  const registry = opts.connectors ?? defaultConnectors;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_SOURCE_TIMEOUT_MS;
  const limit = Math.max(0, Math.floor(opts.limit));
  const sources = [...new Set(opts.sources)];

  const outcomes = await Promise.all(
    sources.map((s) => runOne(s, registry[s], { ...opts, limit, timeoutMs })),
  );

  const by_source: Record<string, SourceRunStatus> = {};
  const all: SourceItem[] = [];
  sources.forEach((s, i) => {
    by_source[s] = outcomes[i].status;
    all.push(...outcomes[i].items);
  });
  return { items: mergeItems(all, limit), by_source };
}

async function runOne(
  source: SourceName,
  connector: Connector | undefined,
  opts: RunSourcesOptions & { timeoutMs: number },
): Promise<{ status: SourceRunStatus; items: SourceItem[] }> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  if (!connector) {
    return { status: { status: 'skipped', count: 0, error: `no connector for source ${source}`, took_ms: 0 }, items: [] };
  }

  const ac = new AbortController();
  const timeoutError = new SourceError(`${source} timed out after ${formatSeconds(opts.timeoutMs)}`, undefined, true);
  const timer = setTimeout(() => ac.abort(timeoutError), opts.timeoutMs);
  const onParentAbort = () => ac.abort(opts.signal?.reason ?? new SourceError(`${source} was cancelled`));
  if (opts.signal?.aborted) onParentAbort();
  else opts.signal?.addEventListener('abort', onParentAbort, { once: true });

  // Rejects when the source's signal aborts, so a connector that ignores the signal cannot hang the run.
  let rejectOnAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    rejectOnAbort = () => reject(ac.signal.reason);
    if (ac.signal.aborted) rejectOnAbort();
    else ac.signal.addEventListener('abort', rejectOnAbort, { once: true });
  });
  aborted.catch(() => undefined);

  try {
    const work = (async () => {
      const credentials = await opts.credentialsFor(source);
      const missing = connector.credentialFields
        .filter((f) => f.required)
        .map((f) => f.name)
        .filter((f) => !(typeof credentials?.[f] === 'string' && credentials[f].trim() !== ''));
      if (missing.length) throw new SourceError(missingCredentialsMessage(source, missing));
      const sleep = opts.sleep ?? abortableSleep;
      return connector.search({
        plan: opts.plan,
        limit: opts.limit,
        credentials,
        baseUrl: opts.baseUrlFor(source) || connector.defaultBaseUrl,
        fetch: opts.fetch,
        signal: ac.signal,
        sleep: (ms) => Promise.race([sleep(ms, ac.signal), aborted]),
        tenantId: opts.tenantId,
        ledger: opts.ledger,
        graphApiVersion: opts.graphApiVersion,
        // Retries of this source in this query share one bounded budget (and never outlast the timeout).
        retryBudget: new RetryBudget(Math.min(opts.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS, Math.max(0, opts.timeoutMs - 5_000))),
        now: opts.now,
        random: opts.random,
        tokenCache: opts.tokenCache,
      });
    })();
    const raw = await Promise.race([work, aborted]);
    const items = (Array.isArray(raw) ? raw : [])
      .filter((it) => it && typeof it.id === 'string' && it.id !== '')
      .map((it) => ({ ...it, source }))
      .slice(0, opts.limit);
    return { status: { status: 'ok', count: items.length, took_ms: took() }, items };
  } catch (err) {
    const error = ac.signal.aborted && ac.signal.reason instanceof SourceError ? ac.signal.reason.message : describeError(source, err);
    return { status: { status: 'error', count: 0, error, took_ms: took() }, items: [] };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onParentAbort);
    if (rejectOnAbort) ac.signal.removeEventListener('abort', rejectOnAbort);
    // Stop whatever the connector still has in flight (it lost the race or failed).
    if (!ac.signal.aborted) ac.abort(new SourceError(`${source} finished`));
  }
}

/**
 * Sorts newest first (created_at desc, then source asc, then id asc) and drops duplicates: the same
 * source+id, or the same normalized URL (the first, i.e. newest, wins). Cuts to `limit`.
 */
export function mergeItems(items: SourceItem[], limit: number): SourceItem[] {
  const sorted = [...items].sort(compareItems);
  const seenIds = new Set<string>();
  const seenUrls = new Set<string>();
  const out: SourceItem[] = [];
  for (const it of sorted) {
    if (out.length >= limit) break;
    const idKey = `${it.source}\u0000${it.id}`;
    // A bare site root ("https://www.instagram.com/") is a fallback, not an item's identity.
    const urlKey = isSiteRoot(it.url) ? '' : normalizeUrl(it.url);
    if (seenIds.has(idKey) || (urlKey && seenUrls.has(urlKey))) continue;
    seenIds.add(idKey);
    if (urlKey) seenUrls.add(urlKey);
    out.push(it);
  }
  return out;
}

/** created_at desc; unreadable dates last; ties by source, then id. */
export function compareItems(a: SourceItem, b: SourceItem): number {
  const ta = Date.parse(a.created_at);
  const tb = Date.parse(b.created_at);
  const va = Number.isNaN(ta) ? -Infinity : ta;
  const vb = Number.isNaN(tb) ? -Infinity : tb;
  if (va !== vb) return vb > va ? 1 : -1;
  if (a.source !== b.source) return a.source < b.source ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * URL identity for de-duplication: lower-case host without `www.`/`m.`, no fragment, no
 * tracking parameters (utm_*, fbclid, gclid, si, s, ref…), sorted query, no trailing slash, http = https.
 * Returns '' for an unreadable URL (never de-duplicated by URL).
 */
export function normalizeUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '';
  }
  const host = u.hostname.toLowerCase().replace(/^(www|m|mobile)\./, '');
  const params = [...u.searchParams.entries()]
    .filter(([k]) => !/^(utm_.*|fbclid|gclid|igshid|si|s|t|ref|ref_src|ref_url|feature|share_id)$/i.test(k))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  const path = u.pathname.replace(/\/+$/, '') || '/';
  const port = u.port && !['80', '443'].includes(u.port) ? `:${u.port}` : '';
  return `${host}${port}${path}${query}`;
}

function isSiteRoot(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.pathname === '/' || u.pathname === '') && !u.search;
  } catch {
    return false;
  }
}

function describeError(source: string, err: unknown): string {
  if (err instanceof SourceError) return err.message;
  if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) return `${source} request was aborted`;
  const msg = err instanceof Error ? err.message : String(err);
  return `${source} failed unexpectedly: ${msg}`;
}

function formatSeconds(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** setTimeout that rejects with the signal's reason when aborted. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
