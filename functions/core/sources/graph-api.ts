import { createHmac } from 'node:crypto';
import type { ConnectorContext } from './types.js';
import { DEFAULT_MAX_WAIT_SECONDS, getJson, parseRetryAfter } from './http-json.js';
import type { SourceErrorKind, Verdict } from './retry-policy.js';
import { DEFAULT_GRAPH_API_VERSION } from './graph-versions.js';

/**
 * Meta Graph API helpers shared by the Facebook and Instagram connectors: version, error
 * classification (https://developers.facebook.com/docs/graph-api/guides/error-handling), usage
 * headers and pacing (https://developers.facebook.com/docs/graph-api/overview/rate-limiting),
 * appsecret_proof (https://developers.facebook.com/docs/facebook-login/security/#appsecret_proof) and paging
 * (https://developers.facebook.com/docs/graph-api/results).
 */

/** The Graph API version of this deployment (config), else the newest stable one. */
export function graphVersion(ctx: Pick<ConnectorContext, 'graphApiVersion'>): string {
  return ctx.graphApiVersion || DEFAULT_GRAPH_API_VERSION;
}

// ---------------------------------------------------------------------------------------------
// Shared Graph API helpers (Facebook + Instagram)
// ---------------------------------------------------------------------------------------------

/** The `error` object of a Graph API error body: `{error:{message,type,code,error_subcode,fbtrace_id}}`. */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_msg?: string;
  is_transient?: boolean;
  fbtrace_id?: string;
}

/** Graph API throttling codes: app (4), user (17), page (32), call-type (613), business use case (80001–80014). */
export function isGraphRateLimitCode(code: number | undefined): boolean {
  return code === 4 || code === 17 || code === 32 || code === 613 || (code !== undefined && code >= 80001 && code <= 80014);
}

/**
 * Codes Meta documents as temporary platform trouble: 1 (API Unknown, "possibly a temporary issue
 * due to downtime"), 2 (API Service, "temporary issue due to downtime"), 341 (Application limit
 * reached, "temporary issue due to downtime or throttling"). `is_transient: true` says the same.
 */
export function isGraphTransientCode(code: number | undefined): boolean {
  return code === 1 || code === 2 || code === 341;
}

/** Reads the `error` object of a Graph API error body, if it has one. */
export function graphErrorOf(body: unknown): GraphErrorBody | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const e = (body as { error?: unknown }).error;
  if (!e || typeof e !== 'object') return undefined;
  const o = e as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined);
  return {
    message: typeof o.message === 'string' ? o.message : undefined,
    type: typeof o.type === 'string' ? o.type : undefined,
    code: num(o.code),
    error_subcode: num(o.error_subcode),
    error_user_msg: typeof o.error_user_msg === 'string' ? o.error_user_msg : undefined,
    is_transient: typeof o.is_transient === 'boolean' ? o.is_transient : undefined,
    fbtrace_id: typeof o.fbtrace_id === 'string' ? o.fbtrace_id : undefined,
  };
}

/**
 * Seconds until the Graph API lets the caller in again, from `X-Business-Use-Case-Usage`
 * (`estimated_time_to_regain_access`, minutes) or `X-Ad-Account-Usage` (`reset_time_duration`, seconds).
 */
export function graphRegainSeconds(headers: Headers): number | undefined {
  let best: number | undefined;
  const take = (s: number) => {
    if (Number.isFinite(s) && s > 0) best = Math.max(best ?? 0, s);
  };
  const buc = headers.get('x-business-use-case-usage');
  if (buc) {
    try {
      const parsed = JSON.parse(buc) as Record<string, Array<{ estimated_time_to_regain_access?: number }>>;
      for (const list of Object.values(parsed)) {
        for (const u of Array.isArray(list) ? list : []) {
          if (typeof u?.estimated_time_to_regain_access === 'number') take(u.estimated_time_to_regain_access * 60);
        }
      }
    } catch {
      /* unreadable header: ignore */
    }
  }
  const ad = headers.get('x-ad-account-usage');
  if (ad) {
    try {
      const parsed = JSON.parse(ad) as { reset_time_duration?: number };
      if (typeof parsed.reset_time_duration === 'number') take(parsed.reset_time_duration);
    } catch {
      /* ignore */
    }
  }
  return best;
}

/** What the tenant must do to fix a rejected Graph token; shown in the error. */
export interface GraphFixHints {
  /** For code 190 (invalid/expired token). */
  token: string;
  /** For permission errors (codes 10, 200–299). */
  permission: string;
}

/**
 * The Graph API classifier (see the error-handling guide): throttling codes → rate (wait from the
 * usage headers' estimated time to regain access), 1/2/341 and `is_transient` → platform down
 * (backoff), 190/102/463/467 → credentials, 10/200–299 → permission, 100 → invalid query, 429 and
 * 5xx without a Graph body → the generic verdicts.
 */
export function graphClassify(hints: GraphFixHints) {
  return (status: number, body: unknown, headers: Headers, now: number): Verdict | undefined => {
    const e = graphErrorOf(body);
    if (!e) {
      if (status === 401) return { kind: 'credentials', temporary: false, hint: hints.token };
      if (status === 403) return { kind: 'permission', temporary: false, hint: hints.permission };
      return undefined;
    }
    const detail = `${e.error_user_msg ?? e.message ?? 'Graph API error'}${e.code !== undefined ? ` (Graph API error ${e.code}${e.error_subcode ? `/${e.error_subcode}` : ''})` : ''}`;
    const v = (kind: SourceErrorKind, temporary: boolean, extra: Partial<Verdict> = {}): Verdict => ({ kind, temporary, detail, ...extra });
    if (isGraphRateLimitCode(e.code)) {
      return v('rate', true, { waitSeconds: graphRegainSeconds(headers) ?? parseRetryAfter(headers.get('retry-after'), now) });
    }
    if (isGraphTransientCode(e.code) || e.is_transient === true || status >= 500) return v('platform_down', true);
    if (e.code === 190 || e.code === 102 || e.code === 463 || e.code === 467 || status === 401) return v('credentials', false, { hint: hints.token });
    if (e.code === 10 || (e.code !== undefined && e.code >= 200 && e.code <= 299) || status === 403) return v('permission', false, { hint: hints.permission });
    if (e.code === 100) return v('invalid_query', false);
    return v('other', false);
  };
}

/** Usage (percent of the limit, the highest of call count, CPU time and total time) from Graph's usage headers. */
export function graphUsagePercent(headers: Headers): number | undefined {
  let best: number | undefined;
  const take = (o: unknown) => {
    if (!o || typeof o !== 'object') return;
    for (const k of ['call_count', 'total_cputime', 'total_time', 'acc_id_util_pct']) {
      const n = (o as Record<string, unknown>)[k];
      if (typeof n === 'number' && Number.isFinite(n)) best = Math.max(best ?? 0, n);
    }
  };
  for (const name of ['x-app-usage', 'x-page-usage', 'x-ad-account-usage']) {
    const raw = headers.get(name);
    if (!raw) continue;
    try {
      take(JSON.parse(raw));
    } catch {
      /* unreadable header: ignore */
    }
  }
  const buc = headers.get('x-business-use-case-usage');
  if (buc) {
    try {
      for (const list of Object.values(JSON.parse(buc) as Record<string, unknown>)) for (const u of Array.isArray(list) ? list : []) take(u);
    } catch {
      /* ignore */
    }
  }
  return best;
}

/** Usage at which requests start slowing down (Meta: "slow down as usage approaches 100%"). */
export const GRAPH_PACE_FROM_PERCENT = 75;
/** Delay before the next request at 100% usage; scaled linearly from {@link GRAPH_PACE_FROM_PERCENT}. */
export const GRAPH_PACE_MAX_MS = 10_000;

/**
 * How long to wait before the next Graph request, from a response's usage headers: nothing below
 * 75%, then linearly up to 10 s at 100%, or the estimated time to regain access when Meta gives one.
 */
export function graphPaceMs(headers: Headers): number {
  const regain = graphRegainSeconds(headers);
  if (regain !== undefined) return regain * 1000;
  const pct = graphUsagePercent(headers);
  if (pct === undefined || pct < GRAPH_PACE_FROM_PERCENT) return 0;
  return Math.round((Math.min(100, pct) - GRAPH_PACE_FROM_PERCENT) / (100 - GRAPH_PACE_FROM_PERCENT) * GRAPH_PACE_MAX_MS);
}

/** `appsecret_proof`: HMAC-SHA256 of the access token keyed with the app secret, hex. */
export function appSecretProof(accessToken: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(accessToken).digest('hex');
}

/** Pending pacing delay per connector context (one query of one source). */
const pending = new WeakMap<object, number>();

/**
 * GET a Graph API URL as JSON through {@link getJson} (the shared retry policy, with
 * {@link graphClassify}). Adds `appsecret_proof` for the URL's access token when the tenant stored
 * an `app_secret`; waits before the request when the previous answer's usage headers asked to slow
 * down (taken from the query's retry budget; skipped when the budget is spent).
 */
export async function graphGet<T>(ctx: ConnectorContext, source: string, url: string, hints: GraphFixHints, what?: string): Promise<T> {
  const delay = pending.get(ctx) ?? 0;
  if (delay > 0) {
    pending.delete(ctx);
    // Longer than one wait: send anyway, the throttling answer (if any) is then classified as usual.
    if (delay <= DEFAULT_MAX_WAIT_SECONDS * 1000 && (!ctx.retryBudget || ctx.retryBudget.take(delay))) await ctx.sleep(delay);
  }
  return getJson<T>(ctx, withAppSecretProof(url, ctx.credentials?.app_secret), undefined, {
    source,
    classify: graphClassify(hints),
    what,
    onResponse: (res) => {
      const ms = graphPaceMs(res.headers);
      if (ms > 0) pending.set(ctx, ms);
    },
  });
}

/** The URL with `appsecret_proof` for its `access_token` (unchanged without a secret or a token). */
export function withAppSecretProof(url: string, appSecret: string | undefined): string {
  const secret = appSecret?.trim();
  if (!secret) return url;
  const u = new URL(url);
  const token = u.searchParams.get('access_token');
  if (!token) return url;
  u.searchParams.set('appsecret_proof', appSecretProof(token, secret));
  return u.toString();
}

/** `paging` of a Graph API list. */
export interface GraphPaging {
  cursors?: { before?: string; after?: string };
  next?: string;
  previous?: string;
}

/**
 * URL of the next page of a Graph list: `paging.next` as Meta sends it (Graph omits `next` on the
 * last page; Instagram documents that rebuilding from `cursors.after` can repeat a page). Followed
 * only on the API's own origin (it carries the access token), and never twice (`seen`): a cursor that
 * repeats ends the list instead of looping.
 */
export function graphNextUrl(current: string, paging: GraphPaging | undefined, seen?: Set<string>): string | undefined {
  const next = paging?.next;
  if (!next) return undefined;
  let u: URL;
  try {
    u = new URL(next);
    if (u.origin !== new URL(current).origin) return undefined;
  } catch {
    return undefined;
  }
  u.searchParams.delete('appsecret_proof'); // recomputed by graphGet for the token it carries
  const key = u.toString();
  if (key === current || seen?.has(key)) return undefined;
  seen?.add(key);
  return key;
}
