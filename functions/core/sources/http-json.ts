import type { SourceName } from '../../config.js';
import { SourceError, type ConnectorContext, type QueryPlan, type SourceItem } from './types.js';
import { DEFAULT_RETRY_LIMITS, RetryBudget, decide, verdictMessage, type Verdict } from './retry-policy.js';

/**
 * Shared plumbing for source connectors: one JSON request function with bounded, polite retries
 * and readable errors, credential checks that tell the admin how to fix them, and the small
 * plan/paging helpers every connector needs.
 *
 * Stable API (other connectors code against it):
 * - {@link getJson} — the only way a connector talks to a platform.
 * - {@link requireCredential}, {@link missingCredentialsMessage}, {@link credentialsRejectedMessage}.
 * - {@link platformErrorMessage} — pulls a message out of the usual platform error bodies.
 * - {@link parseRetryAfter}, {@link parseRateLimitReset}.
 * - {@link planTerms}, {@link buildSearchText}, {@link quoteTerm}.
 * - {@link inPlanWindow}, {@link toIso}, {@link rfc3339}, {@link clampSince}, {@link toNumber}, {@link metricsOf},
 *   {@link formBody}, {@link joinUrl}, {@link finalizeItems}, {@link maxPagesFor}.
 *
 * Conventions for connectors:
 * - metric names: use `likes`, `comments`, `shares`, `views` where the platform has them, plus
 *   platform-specific extras (`score`, `quotes`, `upvote_ratio`, …); values are numbers.
 * - errors: throw SourceError; the message is shown to the user as by_source[source].error.
 * - paging: stop at `ctx.limit` items, at the platform's last page, or after {@link maxPagesFor} pages.
 */

/** Options of {@link getJson}. */
export interface GetJsonOptions {
  /**
   * Source name used in error messages ("x rejected the credentials …"). Defaults to the URL host.
   * Always pass it from a connector.
   */
  source?: SourceName | string;
  /** Total attempts for temporary failures, including the first. Default {@link DEFAULT_MAX_ATTEMPTS}. */
  maxAttempts?: number;
  /** Longest single wait honoured before retrying, in seconds. Default 30. A longer wait is not waited for: the call fails at once. */
  maxWaitSeconds?: number;
  /**
   * The platform's classifier, tried first for every non-2xx answer: turns status, body and headers
   * into a {@link Verdict} (credentials, permission, quota, rate, invalid query, platform down) using
   * the platform's documented error codes and wait headers. Undefined → the generic classification
   * ({@link defaultVerdict}). The shared policy ({@link decide}) then retries or stops.
   */
  classify?: (status: number, body: unknown, headers: Headers, now: number) => Verdict | undefined;
  /**
   * Connector-specific error override, tried before `classify`: return a SourceError to throw it as
   * is (not retried), or undefined to classify.
   */
  mapError?: (status: number, body: unknown, response: Response) => SourceError | undefined;
  /** Called with every 2xx response before its body is read (e.g. to read usage headers). */
  onResponse?: (response: Response) => void;
  /** Human label of the call for error messages (e.g. "token request"). */
  what?: string;
  /**
   * Custom parser of a 2xx body (default JSON.parse). TikTok sends 19-digit ids as JSON numbers,
   * which JSON.parse would round: quote them first (see {@link quoteBigIntegers}).
   */
  parse?: (text: string) => unknown;
}

/** Default total attempts of {@link getJson}. */
export const DEFAULT_MAX_ATTEMPTS = DEFAULT_RETRY_LIMITS.maxAttempts;
/** Default cap of one wait, in seconds. */
export const DEFAULT_MAX_WAIT_SECONDS = DEFAULT_RETRY_LIMITS.maxWaitMs / 1000;

/**
 * The generic classification of a non-2xx answer, used when a platform's classifier has nothing
 * more specific: 429 → rate (wait from Retry-After or a rate-limit reset header), 5xx → platform
 * down (backoff only), 401 → credentials, 403 → permission, 400/422 → invalid query.
 */
export function defaultVerdict(status: number, body: unknown, headers: Headers, now: number): Verdict {
  const detail = platformErrorMessage(body);
  if (status === 429) {
    return { kind: 'rate', temporary: true, detail, waitSeconds: parseRetryAfter(headers.get('retry-after'), now) ?? parseRateLimitReset(headers, now) };
  }
  if (status >= 500) return { kind: 'platform_down', temporary: true, detail };
  if (status === 401) return { kind: 'credentials', temporary: false, detail };
  if (status === 403) return { kind: 'permission', temporary: false, detail };
  if (status === 400 || status === 422) return { kind: 'invalid_query', temporary: false, detail };
  return { kind: 'other', temporary: false, detail };
}

/** The SourceError for a final verdict. */
export function verdictError(source: string, status: number | string, v: Verdict, now: number, what = ''): SourceError {
  return new SourceError(verdictMessage(source, status, v, now, what), v.kind === 'rate' && v.waitSeconds !== undefined ? Math.ceil(v.waitSeconds) : undefined, v.temporary, {
    kind: v.kind,
    status: typeof status === 'number' ? status : undefined,
    resetsAt: v.quota?.resetsAt,
  });
}

/**
 * Calls `ctx.fetch(url, init)` and returns the parsed JSON body, applying the shared retry policy
 * (retry-policy.ts) to every failure:
 *
 * - 2xx: returns the body parsed as JSON (`{}` for an empty body).
 * - non-2xx: classified by `opts.classify` (the platform's documented codes and headers), else
 *   {@link defaultVerdict}; temporary failures are retried through {@link decide} (waits from the
 *   platform's headers for rate limits, capped exponential backoff with jitter for 5xx and network
 *   errors, all taken from `ctx.retryBudget`); final ones throw a SourceError whose message says
 *   which kind it is (credentials, permission, quota + reset time, rate, invalid query, platform down).
 *
 * `ctx.signal` is passed to fetch (unless `init.signal` is given) and checked between attempts; an abort
 * surfaces as the signal's reason (an AbortError/TimeoutError), never wrapped, so callers can tell a timeout.
 * Request bodies must be re-sendable (string, URLSearchParams), since retries send them again.
 */
export async function getJson<T>(
  ctx: ConnectorContext,
  url: string,
  init?: RequestInit,
  opts: GetJsonOptions = {},
): Promise<T> {
  const source = opts.source ?? hostOf(url);
  const limits = {
    ...DEFAULT_RETRY_LIMITS,
    maxAttempts: Math.max(1, opts.maxAttempts ?? DEFAULT_RETRY_LIMITS.maxAttempts),
    maxWaitMs: (opts.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS) * 1000,
  };
  const budget = ctx.retryBudget ?? new RetryBudget();
  const now = () => (ctx.now ?? Date.now)();
  const random = ctx.random ?? Math.random;
  const what = opts.what ? ` ${opts.what}` : '';
  const headers = new Headers(init?.headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json');

  for (let attempt = 1; ; attempt++) {
    throwIfAborted(ctx.signal);
    let res: Response;
    try {
      res = await ctx.fetch(url, { ...init, headers, signal: init?.signal ?? ctx.signal });
    } catch (err) {
      if (ctx.signal.aborted || isAbortError(err)) throw ctx.signal.reason ?? err;
      const v: Verdict = { kind: 'platform_down', temporary: true, detail: `unreachable: ${errMessage(err)}` };
      const d = decide(v, attempt, budget, limits, random);
      if (!d.retry) throw new SourceError(`${source}${what} unreachable: ${errMessage(err)}`, undefined, true, { kind: 'platform_down' });
      await ctx.sleep(d.waitMs);
      continue;
    }

    if (res.ok) {
      opts.onResponse?.(res);
      const text = await res.text();
      if (!text.trim()) return {} as T;
      try {
        return (opts.parse ? opts.parse(text) : JSON.parse(text)) as T;
      } catch {
        throw new SourceError(`${source}${what} returned a response that is not JSON (HTTP ${res.status})`);
      }
    }

    const body = await readBodySafe(res);
    const mapped = opts.mapError?.(res.status, body, res);
    if (mapped) throw mapped;
    const t = now();
    const v = opts.classify?.(res.status, body, res.headers, t) ?? defaultVerdict(res.status, body, res.headers, t);
    if (!v.detail && res.statusText) v.detail = res.statusText;
    const d = decide(v, attempt, budget, limits, random);
    if (!d.retry) throw verdictError(source, res.status, v, t, what);
    await ctx.sleep(d.waitMs);
  }
}

/**
 * Quotes integer values of the named JSON fields that do not fit in a double (≥ 16 digits), so
 * `JSON.parse` keeps them exact as strings: `{"id":7234567890123456789}` → `{"id":"7234567890123456789"}`.
 */
export function quoteBigIntegers(text: string, fields: readonly string[]): string {
  if (!fields.length) return text;
  const names = fields.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return text.replace(new RegExp(`("(?:${names})"\\s*:\\s*)(-?\\d{16,})(?=\\s*[,}\\]])`, 'g'), '$1"$2"');
}

/** "<source> rejected the credentials (401): <msg>; update them with PUT /dashboard/api/sources/<source>". */
export function credentialsRejectedMessage(source: string, status: number | string, platformMsg?: string): string {
  return `${source} rejected the credentials (${status})${platformMsg ? `: ${platformMsg}` : ''}; update them with PUT /dashboard/api/sources/${source}`;
}

/**
 * Message for missing credentials, naming the JSON fields to send:
 * `x credentials are missing (bearer_token); add them with PUT /dashboard/api/sources/x {"bearer_token":"…"}`.
 */
export function missingCredentialsMessage(source: string, fields: readonly string[]): string {
  const example = `{${fields.map((f) => `"${f}":"…"`).join(',')}}`;
  return `${source} credentials are missing (${fields.join(', ')}); add them with PUT /dashboard/api/sources/${source} ${example}`;
}

/**
 * Returns `ctx.credentials[field]` (trimmed) or throws a SourceError saying how to add it.
 * `allFields` (default `[field]`) lists every field to mention in the message, e.g. the connector's
 * required credential fields, so the admin fixes them in one go.
 */
export function requireCredential(
  ctx: Pick<ConnectorContext, 'credentials'>,
  source: string,
  field: string,
  allFields: readonly string[] = [field],
): string {
  const v = ctx.credentials?.[field];
  if (typeof v === 'string' && v.trim() !== '') return v.trim();
  const missing = allFields.includes(field) ? allFields : [field, ...allFields];
  throw new SourceError(missingCredentialsMessage(source, missing));
}

/** SourceError for a plan with nothing to search for. */
export function noSearchTermsError(source: string): SourceError {
  return new SourceError(`${source}: the query plan has no keywords, phrases, hashtags or mentions to search for`);
}

/** Optional credential: trimmed value or undefined. */
export function optionalCredential(ctx: Pick<ConnectorContext, 'credentials'>, field: string): string | undefined {
  const v = ctx.credentials?.[field];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/**
 * Extracts a human message from the usual platform error bodies:
 * `{error:{message}}` (Google, Meta, TikTok), `{errors:[{message}]}` / `{detail}` / `{title}` (X),
 * `{message}` (Reddit, LinkedIn), `{error, error_description}` (OAuth), or a plain text body.
 */
export function platformErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') {
    const t = body.trim();
    return t ? t.slice(0, 300) : undefined;
  }
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  if (b.error && typeof b.error === 'object') {
    const e = b.error as Record<string, unknown>;
    const m = str(e.message) ?? str(e.error_user_msg) ?? str(e.description);
    if (m) return m;
  }
  if (typeof b.error === 'string') {
    return [str(b.error), str(b.error_description) ?? str(b.message)].filter(Boolean).join(': ');
  }
  if (Array.isArray(b.errors) && b.errors.length) {
    const msgs = b.errors
      .map((e) => (e && typeof e === 'object' ? str((e as Record<string, unknown>).message) ?? str((e as Record<string, unknown>).detail) : str(e)))
      .filter(Boolean);
    if (msgs.length) return msgs.join('; ');
  }
  return str(b.detail) ?? str(b.message) ?? str(b.title) ?? str(b.error_description);
}

/** Parses a Retry-After value (delta seconds or HTTP date) into seconds ≥ 0; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, (t - now) / 1000);
}

/**
 * Reads rate-limit reset headers into seconds to wait: `x-rate-limit-reset` (X: epoch seconds),
 * `x-ratelimit-reset` (Reddit: seconds until reset; values above 1e9 are treated as epoch seconds).
 */
export function parseRateLimitReset(headers: Headers, now: number = Date.now()): number | undefined {
  const raw = headers.get('x-rate-limit-reset') ?? headers.get('x-ratelimit-reset');
  if (raw == null || !/^\d+(\.\d+)?$/.test(raw.trim())) return undefined;
  const n = Number(raw.trim());
  if (n > 1e9) return Math.max(0, n - now / 1000);
  return n;
}

/** The plan's terms, trimmed, de-duplicated and with leading '#'/'@' stripped. */
export interface PlanTerms {
  keywords: string[];
  phrases: string[];
  hashtags: string[];
  mentions: string[];
  exclude: string[];
}

/** Normalizes the plan's term lists (see {@link PlanTerms}). */
export function planTerms(plan: QueryPlan): PlanTerms {
  const clean = (xs: readonly string[] | undefined, strip?: RegExp) => {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const x of xs ?? []) {
      const v = (strip ? x.replace(strip, '') : x).replace(/\s+/g, ' ').trim();
      if (!v || seen.has(v.toLowerCase())) continue;
      seen.add(v.toLowerCase());
      out.push(v);
    }
    return out;
  };
  return {
    keywords: clean(plan.keywords),
    phrases: clean(plan.phrases).map((p) => p.replace(/"/g, '')),
    hashtags: clean(plan.hashtags, /^#+/),
    mentions: clean(plan.mentions, /^@+/),
    exclude: clean(plan.exclude),
  };
}

/** Quotes a term that contains whitespace (or always, with `force`). */
export function quoteTerm(term: string, force = false): string {
  const t = term.replace(/"/g, '');
  return force || /\s/.test(t) ? `"${t}"` : t;
}

/** Syntax knobs of {@link buildSearchText}. */
export interface SearchSyntax {
  /** Operator between alternatives. Default ' OR '. YouTube uses '|'. */
  or?: string;
  /** Renders a hashtag (without '#'). Default `#tag`; return '' to drop it. */
  hashtag?: (tag: string) => string;
  /** Renders a mention (without '@'). Default `@name`; return '' to drop it. */
  mention?: (name: string) => string;
  /** Renders one exclusion. Default `-term` (quoted when it has spaces); return '' to drop it. */
  exclude?: (term: string) => string;
  /** Wrap several alternatives in parentheses. Default true (YouTube has no grouping: false). */
  group?: boolean;
}

/**
 * Builds a search string from the plan, with one meaning shared by all connectors:
 *
 * - keywords and phrases form the core: ALL of them must match (space = AND; phrases quoted);
 * - each hashtag and each mention is an ALTERNATIVE to the core (OR);
 * - exclusions are appended as negations.
 *
 * e.g. keywords [acme, shoes], hashtags [acmefail], exclude [sale] → `(acme shoes OR #acmefail) -sale`.
 * Returns '' when the plan has no positive term.
 */
export function buildSearchText(plan: QueryPlan, syntax: SearchSyntax = {}): string {
  const t = planTerms(plan);
  const or = syntax.or ?? ' OR ';
  const hashtag = syntax.hashtag ?? ((x: string) => `#${x}`);
  const mention = syntax.mention ?? ((x: string) => `@${x}`);
  const exclude = syntax.exclude ?? ((x: string) => `-${quoteTerm(x)}`);
  const core = [...t.keywords.map((k) => quoteTerm(k)), ...t.phrases.map((p) => quoteTerm(p, true))].join(' ');
  const alts = [...t.hashtags.map(hashtag), ...t.mentions.map(mention)].filter(Boolean);
  const positives = [core, ...alts].filter(Boolean);
  if (!positives.length) return '';
  const group = syntax.group ?? true;
  let q = positives.length === 1 ? positives[0] : group ? `(${positives.join(or)})` : positives.join(or);
  const neg = t.exclude.map(exclude).filter(Boolean);
  if (neg.length) q = `${q} ${neg.join(' ')}`;
  return q;
}

/** True when `createdAt` (ISO) falls in [plan.since, plan.until] (either bound may be unreadable → open). */
export function inPlanWindow(plan: QueryPlan, createdAt: string): boolean {
  const t = Date.parse(createdAt);
  if (Number.isNaN(t)) return false;
  const since = Date.parse(plan.since);
  const until = Date.parse(plan.until);
  if (!Number.isNaN(since) && t < since) return false;
  if (!Number.isNaN(until) && t > until) return false;
  return true;
}

/** Converts epoch seconds, epoch ms or a date string to ISO 8601 (UTC); undefined if unreadable. */
export function toIso(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v < 1e12 ? v * 1000 : v).toISOString();
  if (typeof v === 'string' && v.trim()) {
    if (/^\d+(\.\d+)?$/.test(v.trim())) return toIso(Number(v));
    const t = Date.parse(v);
    if (!Number.isNaN(t)) return new Date(t).toISOString();
  }
  return undefined;
}

/**
 * Clamps `since` so that it is no older than `maxAgeMs` before now (e.g. X recent search: 7 days),
 * and no later than `until`. Returns ISO strings.
 */
export function clampSince(
  plan: QueryPlan,
  maxAgeMs: number,
  now: number = Date.now(),
  marginMs = 60_000,
): { since: string; until: string } {
  const untilT = Math.min(parseOr(plan.until, now), now);
  const earliest = now - maxAgeMs + marginMs;
  const sinceT = Math.min(Math.max(parseOr(plan.since, earliest), earliest), untilT);
  return { since: new Date(sinceT).toISOString(), until: new Date(untilT).toISOString() };
}

/** RFC 3339 without milliseconds (`2024-05-01T10:00:00Z`), as X and Google APIs document it. */
export function rfc3339(t: number | string | Date): string {
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A page budget that cannot loop forever: enough pages for `limit` at `pageSize`, plus slack, at most 50. */
export function maxPagesFor(limit: number, pageSize: number): number {
  return Math.min(50, Math.ceil(Math.max(1, limit) / Math.max(1, pageSize)) + 3);
}

/** Numeric value of a metric that platforms may send as a string ("123"); undefined when not a number. */
export function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** Builds a metrics record keeping only numeric values. */
export function metricsOf(entries: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(entries)) {
    const n = toNumber(v);
    if (n !== undefined) out[k] = n;
  }
  return out;
}

/** `application/x-www-form-urlencoded` body from a record (undefined values skipped). */
export function formBody(fields: Record<string, string | undefined>): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) p.set(k, v);
  return p;
}

/** Joins a base URL (no trailing slash needed) and a path, keeping any base path prefix. */
export function joinUrl(baseUrl: string, path: string, query?: Record<string, string | number | undefined>): string {
  const u = new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') u.searchParams.set(k, String(v));
  return u.toString();
}

/** Keeps items in the plan window, drops duplicates by id, and cuts to `limit`. */
export function finalizeItems(plan: QueryPlan, items: SourceItem[], limit: number): SourceItem[] {
  const seen = new Set<string>();
  const out: SourceItem[] = [];
  for (const it of items) {
    if (seen.has(it.id) || !inPlanWindow(plan, it.created_at)) continue;
    seen.add(it.id);
    out.push(it);
    if (out.length >= limit) break;
  }
  return out;
}

function parseOr(s: string | undefined, fallback: number): number {
  const t = s ? Date.parse(s) : NaN;
  return Number.isNaN(t) ? fallback : t;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

function errMessage(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}

async function readBodySafe(res: Response): Promise<unknown> {
  let text: string;
  try {
    text = await res.text();
  } catch {
    return undefined;
  }
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // HTML error pages are noise in a user-facing message.
    return /^\s*</.test(text) ? undefined : text;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'source';
  }
}
