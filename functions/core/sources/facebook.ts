import type { QueryPlan, SourceItem, Connector, ConnectorContext } from './types.js';
import { SourceError } from './types.js';
import {
  credentialsRejectedMessage,
  finalizeItems,
  inPlanWindow,
  getJson,
  joinUrl,
  metricsOf,
  optionalCredential,
  planTerms,
  requireCredential,
  toIso,
  DEFAULT_MAX_WAIT_SECONDS,
} from './http-json.js';

/**
 * Facebook connector: posts of the Pages the tenant manages, read through the Graph API with the
 * tenant's own token (no public search exists on Facebook).
 *
 *   GET /v21.0/me/accounts?fields=id,name,access_token          (managed Pages and their Page tokens)
 *   GET /v21.0/{page-id}/posts?fields=…&since=<unix>&until=<unix>&limit=100&after=<cursor>
 *
 * The API filters the time window (since/until); keywords, phrases, hashtags, mentions and exclusions
 * are applied here on the post message (see {@link matchesPlanText}), because the Pages API has no
 * text search. This module also holds the Graph API helpers shared with the Instagram connector.
 */

/** Graph API version used by the Meta connectors (Facebook, Instagram). */
export const GRAPH_API_VERSION = 'v21.0';

const SOURCE = 'facebook';
const PAGE_SIZE = 100;
/** Most result pages read per Facebook Page (100 posts each). */
const MAX_PAGES_PER_FEED = 20;
/** Most managed Pages read when they are discovered through /me/accounts. */
const MAX_MANAGED_PAGES = 25;
const POST_FIELDS = 'id,message,created_time,permalink_url,shares,reactions.summary(true),comments.summary(true)';

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

// ---------------------------------------------------------------------------------------------
// Client-side text matching shared by connectors whose API cannot filter by text
// ---------------------------------------------------------------------------------------------

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function norm(s: string): string {
  return s.normalize('NFKC').toLowerCase();
}

/** The term at a word start (prefix match: "shoe" matches "shoes", "ai" does not match "said"). */
function hasTerm(hay: string, term: string): boolean {
  const t = norm(term).replace(/\s+/g, ' ').trim();
  if (!t) return false;
  const pattern = escapeRe(t).replace(/ /g, '\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${pattern}`, 'u').test(hay);
}

function hasTag(hay: string, prefix: '#' | '@', name: string): boolean {
  const t = norm(name).trim();
  if (!t) return false;
  return new RegExp(`${prefix}${escapeRe(t)}(?![\\p{L}\\p{N}_])`, 'u').test(hay);
}

/**
 * Client-side equivalent of the shared query meaning (http-json `buildSearchText`): the text matches
 * when it contains ALL keywords and phrases, or ANY hashtag (#tag) or mention (@name, or the bare
 * name as a word), and none of the exclusions. A plan with no positive term matches every text.
 * Case-insensitive; a term matches at the start of a word. `excludeOnly` checks only the exclusions
 * (for results the platform already matched, e.g. Instagram hashtag media).
 */
export function matchesPlanText(plan: QueryPlan, text: string, opts: { excludeOnly?: boolean } = {}): boolean {
  const t = planTerms(plan);
  const hay = norm(text);
  if (t.exclude.some((x) => hasTerm(hay, x))) return false;
  if (opts.excludeOnly) return true;
  const core = [...t.keywords, ...t.phrases];
  if (!core.length && !t.hashtags.length && !t.mentions.length) return true;
  if (core.length && core.every((k) => hasTerm(hay, k))) return true;
  if (t.hashtags.some((h) => hasTag(hay, '#', h))) return true;
  if (t.mentions.some((m) => hasTag(hay, '@', m) || hasTerm(hay, m))) return true;
  return false;
}

/** Newest first, by created_at. */
export function byNewest(a: SourceItem, b: SourceItem): number {
  return Date.parse(b.created_at) - Date.parse(a.created_at);
}

// ---------------------------------------------------------------------------------------------
// Facebook connector
// ---------------------------------------------------------------------------------------------

const FB_HINTS: GraphFixHints = {
  token:
    'The access token is invalid or has expired: create a new long-lived User token (or a Page token) with pages_show_list, pages_read_engagement and pages_read_user_content for a Page you manage',
  permission:
    'The token lacks a permission: grant pages_show_list, pages_read_engagement and pages_read_user_content (and a Page role with content tasks) to the app, then store a new token',
};

interface FbPage {
  id: string;
  name?: string;
  access_token?: string;
}

interface FbPost {
  id: string;
  message?: string;
  created_time?: string;
  permalink_url?: string;
  shares?: { count?: number };
  reactions?: { summary?: { total_count?: number } };
  comments?: { summary?: { total_count?: number } };
}

interface GraphList<T> {
  data?: T[];
  paging?: GraphPaging;
}

function unixSeconds(iso: string): number | undefined {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : Math.floor(t / 1000);
}

function graphUrl(ctx: ConnectorContext, path: string, query: Record<string, string | number | undefined>): string {
  return joinUrl(ctx.baseUrl, `/${GRAPH_API_VERSION}${path}`, query);
}

/** Pages managed by the token's user (GET /me/accounts), with their Page tokens. */
async function listManagedPages(ctx: ConnectorContext, token: string): Promise<FbPage[]> {
  const pages: FbPage[] = [];
  let url: string | undefined = graphUrl(ctx, '/me/accounts', { fields: 'id,name,access_token', limit: 100, access_token: token });
  for (let i = 0; url && i < 10 && pages.length < MAX_MANAGED_PAGES; i++) {
    const body: GraphList<FbPage> = await graphGet<GraphList<FbPage>>(ctx, SOURCE, url, FB_HINTS, 'page list');
    for (const p of body.data ?? []) if (p && typeof p.id === 'string') pages.push(p);
    url = graphNextUrl(url, body.paging);
  }
  return pages.slice(0, MAX_MANAGED_PAGES);
}

function mapPost(post: FbPost, page: FbPage): SourceItem | undefined {
  if (!post || typeof post.id !== 'string') return undefined;
  const created = toIso(post.created_time);
  if (!created) return undefined;
  const postPart = post.id.includes('_') ? post.id.slice(post.id.indexOf('_') + 1) : post.id;
  return {
    source: SOURCE,
    id: post.id,
    url: post.permalink_url || `https://www.facebook.com/${encodeURIComponent(page.id)}/posts/${encodeURIComponent(postPart)}`,
    author: page.name ?? page.id,
    text: post.message ?? '',
    created_at: created,
    metrics: metricsOf({
      reactions: post.reactions?.summary?.total_count,
      comments: post.comments?.summary?.total_count,
      // Graph omits `shares` on posts nobody shared.
      shares: post.shares?.count ?? 0,
    }),
  };
}

/** Reads one Page's posts in the window, keeping those that match the plan, up to `want`. */
async function pagePosts(ctx: ConnectorContext, page: FbPage, token: string, want: number): Promise<SourceItem[]> {
  const out: SourceItem[] = [];
  let url: string | undefined = graphUrl(ctx, `/${encodeURIComponent(page.id)}/posts`, {
    fields: POST_FIELDS,
    since: unixSeconds(ctx.plan.since),
    until: unixSeconds(ctx.plan.until),
    limit: PAGE_SIZE,
    access_token: token,
  });
  for (let i = 0; url && i < MAX_PAGES_PER_FEED && out.length < want; i++) {
    const body: GraphList<FbPost> = await graphGet<GraphList<FbPost>>(ctx, SOURCE, url, FB_HINTS, `posts of Page ${page.id}`);
    const data = body.data ?? [];
    for (const post of data) {
      const item = mapPost(post, page);
      if (!item) continue;
      // since/until are applied by the API; checked again here (the API's window is on Graph's own clock).
      if (!inPlanWindow(ctx.plan, item.created_at)) continue;
      if (!matchesPlanText(ctx.plan, item.text)) continue;
      out.push(item);
      if (out.length >= want) break;
    }
    if (!data.length) break;
    url = graphNextUrl(url, body.paging);
  }
  return out;
}

function splitList(v: string | undefined): string[] {
  return [...new Set((v ?? '').split(/[\s,]+/).map((s) => s.trim()).filter(Boolean))];
}

export const facebookConnector: Connector = {
  name: 'facebook',
  defaultBaseUrl: 'https://graph.facebook.com',
  credentialFields: [
    {
      name: 'access_token',
      required: true,
      description:
        'Graph API access token: a long-lived User token of someone who manages the Pages (pages_show_list, pages_read_engagement, pages_read_user_content), or a Page token when page_ids names that one Page.',
    },
    {
      name: 'page_ids',
      required: false,
      description:
        'Optional comma-separated Page ids to read. When empty, every Page the token manages is read (GET /me/accounts, using each Page token).',
    },
  ],
  accessNotes:
    'Reads posts of the Facebook Pages the tenant manages through the Graph API (v21.0) with the tenant\'s own token; Facebook has no public post search. ' +
    'Create a Meta app (type Business), add Facebook Login for Business, and generate a User token with pages_show_list, pages_read_engagement and pages_read_user_content for an account with a role on the Pages; exchange it for a long-lived token (60 days) or use a System User token, then store it with PUT /dashboard/api/sources/facebook {"access_token":"…","page_ids":"optional,comma,list"}. ' +
    'Without page_ids, Pages come from GET /me/accounts and each is read with its own Page token; with page_ids, the Page tokens from /me/accounts are used when available, else the stored token. ' +
    'The time window is filtered by the API (since/until); keywords, phrases, hashtags, mentions and exclusions are matched here on the post message (all keywords, or any hashtag/mention, none of the exclusions). ' +
    'Metrics: reactions, comments and shares. Graph API rate limits (error codes 4, 17, 32, 613) are retried briefly, then reported as rate limited.',

  async search(ctx: ConnectorContext): Promise<SourceItem[]> {
    const token = requireCredential(ctx, SOURCE, 'access_token');
    const wanted = splitList(optionalCredential(ctx, 'page_ids'));
    if (ctx.limit <= 0) return [];

    let pages: Array<{ page: FbPage; token: string }>;
    if (!wanted.length) {
      const managed = await listManagedPages(ctx, token);
      if (!managed.length) {
        throw new SourceError(
          'facebook: the access token manages no Pages (GET /me/accounts is empty); use the token of a user with a role on the Pages, or set page_ids with PUT /dashboard/api/sources/facebook',
        );
      }
      pages = managed.map((p) => ({ page: p, token: p.access_token || token }));
    } else {
      // Page tokens when the stored token is a User token; a Page token cannot list accounts (Graph error 100): ignore that.
      let managed: FbPage[] = [];
      try {
        managed = await listManagedPages(ctx, token);
      } catch (err) {
        if (!(err instanceof GraphApiError) || err.kind !== 'other') throw err;
      }
      const byId = new Map(managed.map((p) => [p.id, p]));
      pages = wanted.map((id) => {
        const m = byId.get(id);
        return { page: { id, name: m?.name }, token: m?.access_token || token };
      });
    }

    const all: SourceItem[] = [];
    for (const { page, token: pageToken } of pages) {
      all.push(...(await pagePosts(ctx, page, pageToken, ctx.limit)));
    }
    return finalizeItems(ctx.plan, all.sort(byNewest), ctx.limit);
  },
};
