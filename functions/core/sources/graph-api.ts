import type { ConnectorContext } from './types.js';
import { SourceError } from './types.js';
import { credentialsRejectedMessage, getJson, DEFAULT_MAX_WAIT_SECONDS } from './http-json.js';

/** Meta Graph API helpers shared by the Facebook and Instagram connectors: errors, retries, paging. */
/** Graph API version used by the Meta connectors (Facebook, Instagram). */
export const GRAPH_API_VERSION = 'v21.0';

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

export type GraphErrorKind = 'auth' | 'permission' | 'rate_limit' | 'other';

/** A Graph API error, classified by its `code` (thrown by {@link graphGet}). */
export class GraphApiError extends SourceError {
  constructor(
    message: string,
    readonly kind: GraphErrorKind,
    readonly status: number,
    readonly code: number | undefined,
    retryAfterSeconds?: number,
  ) {
    super(message, retryAfterSeconds, kind === 'rate_limit');
    this.name = 'SourceError';
  }
}

/** Graph API throttling codes: app (4), user (17), page (32), call-type (613), business use case (80001–80014). */
export function isGraphRateLimitCode(code: number | undefined): boolean {
  return code === 4 || code === 17 || code === 32 || code === 613 || (code !== undefined && code >= 80001 && code <= 80014);
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
 * A `getJson` `mapError` for the Graph API. 429 and 5xx are left to getJson (retried honouring
 * Retry-After). Otherwise Graph error codes decide: throttling codes → retryable rate-limit error
 * (retried by {@link graphGet}), 190/102/463/467 → rejected token, 10/200–299 → missing permission.
 */
export function graphMapError(source: string, hints: GraphFixHints) {
  return (status: number, body: unknown, res: Response): SourceError | undefined => {
    const e = graphErrorOf(body);
    if (status === 429 || status >= 500) return undefined;
    if (!e) {
      if (status === 401 || status === 403) {
        return new GraphApiError(credentialsRejectedMessage(source, status, hints.token), 'auth', status, undefined);
      }
      return undefined;
    }
    const detail = `${e.error_user_msg ?? e.message ?? 'Graph API error'}${e.code !== undefined ? ` (Graph API error ${e.code}${e.error_subcode ? `/${e.error_subcode}` : ''})` : ''}`;
    if (isGraphRateLimitCode(e.code)) {
      return new GraphApiError(`${source} rate limited: ${detail}`, 'rate_limit', status, e.code, graphRegainSeconds(res.headers));
    }
    if (e.code === 190 || e.code === 102 || e.code === 463 || e.code === 467 || status === 401) {
      return new GraphApiError(credentialsRejectedMessage(source, status, `${detail}. ${hints.token}`), 'auth', status, e.code);
    }
    if (e.code === 10 || (e.code !== undefined && e.code >= 200 && e.code <= 299) || status === 403) {
      return new GraphApiError(credentialsRejectedMessage(source, status, `${detail}. ${hints.permission}`), 'permission', status, e.code);
    }
    return new GraphApiError(`${source} API error (${status}): ${detail}`, 'other', status, e.code);
  };
}

/** Total attempts of {@link graphGet} for Graph throttling errors (HTTP 400/403 with code 4/17/32/613). */
const GRAPH_MAX_ATTEMPTS = 3;

/**
 * GET a Graph API URL as JSON through {@link getJson} (which retries 429/5xx honouring Retry-After).
 * Graph throttling errors that arrive as 400/403 with code 4/17/32/613 are retried here too, waiting
 * for the `X-Business-Use-Case-Usage` estimate or a short backoff (1 s, 2 s); a wait longer than
 * 30 s is not honoured and the call fails with a retryable SourceError carrying retryAfterSeconds.
 */
export async function graphGet<T>(ctx: ConnectorContext, source: string, url: string, hints: GraphFixHints, what?: string): Promise<T> {
  const mapError = graphMapError(source, hints);
  for (let attempt = 1; ; attempt++) {
    try {
      return await getJson<T>(ctx, url, undefined, { source, mapError, what });
    } catch (err) {
      if (!(err instanceof GraphApiError) || err.kind !== 'rate_limit') throw err;
      const waitS = err.retryAfterSeconds;
      if (attempt >= GRAPH_MAX_ATTEMPTS || (waitS !== undefined && waitS > DEFAULT_MAX_WAIT_SECONDS)) {
        const hint = waitS !== undefined ? `; retry after ${Math.ceil(waitS)} s` : '; retry later';
        throw new GraphApiError(`${err.message}${hint}`, 'rate_limit', err.status, err.code, waitS !== undefined ? Math.ceil(waitS) : undefined);
      }
      await ctx.sleep(waitS !== undefined ? Math.ceil(waitS * 1000) : 1000 * 2 ** (attempt - 1));
    }
  }
}

/** `paging` of a Graph API list. */
export interface GraphPaging {
  cursors?: { before?: string; after?: string };
  next?: string;
  previous?: string;
}

/**
 * URL of the next page of a Graph list: rebuilt from `current` with `after=<cursors.after>` when there
 * is a `next` link (Graph omits `next` on the last page, even when a cursor is present); undefined at the end.
 */
export function graphNextUrl(current: string, paging: GraphPaging | undefined): string | undefined {
  if (!paging?.next) return undefined;
  const after = paging.cursors?.after;
  if (after) {
    const u = new URL(current);
    u.searchParams.set('after', after);
    return u.toString();
  }
  // No cursor: follow `next` only on the same origin as the API base (it carries the access token).
  try {
    return new URL(paging.next).origin === new URL(current).origin ? paging.next : undefined;
  } catch {
    return undefined;
  }
}

