import type { QueryPlan, Connector, ConnectorContext, SourceItem } from './types.js';
import { SourceError } from './types.js';
import type { Verdict } from './retry-policy.js';
import { queryTooLongError } from './query-length.js';
import {
  defaultVerdict,
  platformErrorMessage,
  buildSearchText,
  clampSince,
  finalizeItems,
  getJson,
  joinUrl,
  maxPagesFor,
  metricsOf,
  noSearchTermsError,
  quoteTerm,
  requireCredential,
  rfc3339,
  toIso,
} from './http-json.js';

/** Recent search only covers the last 7 days. */
const RECENT_WINDOW_MS = 7 * 24 * 3_600_000;
/** X wants end_time at least 10 s before the request. */
const END_TIME_MARGIN_MS = 30_000;

interface XTweet {
  id: string;
  text: string;
  author_id?: string;
  created_at?: string;
  lang?: string;
  public_metrics?: {
    retweet_count?: number;
    reply_count?: number;
    like_count?: number;
    quote_count?: number;
    bookmark_count?: number;
    impression_count?: number;
  };
}
interface XSearchResponse {
  data?: XTweet[];
  includes?: { users?: { id: string; username: string; name?: string }[] };
  meta?: { result_count?: number; next_token?: string; newest_id?: string; oldest_id?: string };
  errors?: { message?: string; detail?: string; title?: string }[];
}

/**
 * X search query for the plan (X API v2 query syntax): keywords AND-ed, phrases quoted, each
 * #hashtag and each mention — `(@name OR from:name)` — as an alternative, `-term` exclusions,
 * `lang:xx`, and `-is:retweet` so reposts do not crowd out original posts.
 */
export function buildXQuery(plan: QueryPlan): string {
  const q = buildSearchText(plan, {
    hashtag: (t) => `#${t.replace(/\s+/g, '')}`,
    mention: (m) => `(@${m} OR from:${m})`,
    exclude: (t) => `-${quoteTerm(t)}`,
  });
  if (!q) return '';
  const lang = plan.language && /^[a-z]{2,3}$/i.test(plan.language) ? ` lang:${plan.language.toLowerCase()}` : '';
  return `${q}${lang} -is:retweet`;
}

/**
 * Longest `query` of recent search at the basic access level (X API "Search Posts" / "Build a query":
 * 512 characters for Self-serve/Basic, 4,096 for Pro and Enterprise).
 */
export const X_MAX_QUERY_LENGTH = 512;

const X_TIER_HINT =
  'the App\'s access level does not include GET /2/tweets/search/recent (Free has no search): move the App to a Project on Basic or higher in the X developer portal';

/**
 * X API v2 errors (https://docs.x.com/x-api/fundamentals/response-codes-and-errors, "Rate limits"
 * https://docs.x.com/x-api/fundamentals/rate-limits, "Post cap" https://docs.x.com/x-api/fundamentals/post-cap):
 * - 429 `type …/problems/usage-capped` (title UsageCapExceeded, `period` Daily/Monthly, `scope`) → quota, not a short rate limit;
 * - 429 with `x-app-limit-24hour-remaining: 0` → the app's 24-hour limit, reset at `x-app-limit-24hour-reset` (epoch s);
 * - other 429 → rate, wait until `x-rate-limit-reset` (epoch s);
 * - 403 `…/problems/client-forbidden` (reason client-not-enrolled) → permission: the access tier lacks search;
 * - 400 `…/problems/invalid-request` → invalid query.
 */
export function classifyX(status: number, body: unknown, headers: Headers, now: number): Verdict | undefined {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const type = typeof b.type === 'string' ? b.type : '';
  const detail = platformErrorMessage(body);
  if (status === 429 && (/usage-capped/.test(type) || b.title === 'UsageCapExceeded')) {
    const period = typeof b.period === 'string' ? b.period : 'Monthly';
    const scope = typeof b.scope === 'string' ? b.scope : 'Product';
    return {
      kind: 'quota',
      temporary: false,
      detail,
      quota: { name: `X ${period.toLowerCase()} ${scope.toLowerCase()} usage cap` },
      hint: period === 'Daily' ? 'it resets 24 hours after the cap started; see the X developer portal' : 'it resets with your X billing cycle (see Usage in the X developer portal), or raise the cap by moving to a higher access level',
    };
  }
  if (status === 429 && headers.get('x-app-limit-24hour-remaining')?.trim() === '0') {
    const reset = Number(headers.get('x-app-limit-24hour-reset'));
    return {
      kind: 'quota',
      temporary: false,
      detail,
      quota: { name: 'X app 24-hour request limit', ...(Number.isFinite(reset) && reset > 0 ? { resetsAt: new Date(reset * 1000) } : {}) },
    };
  }
  if (status === 403 && (/client-forbidden/.test(type) || b.reason === 'client-not-enrolled')) {
    return { kind: 'permission', temporary: false, detail, hint: X_TIER_HINT };
  }
  return defaultVerdict(status, body, headers, now);
}

/** X (Twitter) — API v2 recent search with the tenant's app-only Bearer token. */
export const xConnector: Connector = {
  name: 'x',
  maxQueryLength: X_MAX_QUERY_LENGTH,
  searchText: buildXQuery,
  defaultBaseUrl: 'https://api.x.com',
  credentialFields: [
    {
      name: 'bearer_token',
      required: true,
      description: 'App-only Bearer Token of an X developer App (developer portal → Projects & Apps → Keys and tokens).',
    },
  ],
  accessNotes:
    'Needs an X developer account with an App inside a Project on a tier that includes GET /2/tweets/search/recent ' +
    '(Basic or higher; Free does not allow search). Uses the App-only Bearer Token; recent search only covers the last 7 days, ' +
    'so older time windows are clamped. Queries longer than 512 characters (the basic-level limit) are refused before sending. Add it with PUT /dashboard/api/sources/x {"bearer_token":"…"}.',

  async search(ctx: ConnectorContext): Promise<SourceItem[]> {
    const token = requireCredential(ctx, 'x', 'bearer_token');
    const query = buildXQuery(ctx.plan);
    if (!query) {
      throw noSearchTermsError('x');
    }
    if (query.length > X_MAX_QUERY_LENGTH) throw queryTooLongError('x', query.length, X_MAX_QUERY_LENGTH);
    const now = Date.now();
    const { since, until } = clampSince({ ...ctx.plan, until: minIso(ctx.plan.until, now - END_TIME_MARGIN_MS) }, RECENT_WINDOW_MS, now);
    if (Date.parse(since) >= Date.parse(until)) return [];

    const items: SourceItem[] = [];
    let nextToken: string | undefined;
    const maxPages = maxPagesFor(ctx.limit, 100);
    for (let page = 0; page < maxPages && items.length < ctx.limit; page++) {
      const url = joinUrl(ctx.baseUrl, '/2/tweets/search/recent', {
        query,
        max_results: Math.min(100, Math.max(10, ctx.limit - items.length)),
        start_time: rfc3339(since),
        end_time: rfc3339(until),
        'tweet.fields': 'created_at,public_metrics,author_id,lang',
        expansions: 'author_id',
        'user.fields': 'username',
        next_token: nextToken,
      });
      const body = await getJson<XSearchResponse>(ctx, url, { headers: { authorization: `Bearer ${token}` } }, { source: 'x', classify: classifyX });
      if (!body.data && body.errors?.length && !body.meta) {
        throw new SourceError(`x API error: ${body.errors.map((e) => e.detail ?? e.message ?? e.title).join('; ')}`);
      }
      const users = new Map((body.includes?.users ?? []).map((u) => [u.id, u.username]));
      for (const t of body.data ?? []) {
        const created = toIso(t.created_at);
        if (!t.id || !created) continue;
        const username = t.author_id ? users.get(t.author_id) : undefined;
        const m = t.public_metrics ?? {};
        items.push({
          source: 'x',
          id: String(t.id),
          url: username ? `https://x.com/${username}/status/${t.id}` : `https://x.com/i/web/status/${t.id}`,
          author: username ?? null,
          text: t.text ?? '',
          created_at: created,
          metrics: metricsOf({
            likes: m.like_count,
            comments: m.reply_count,
            shares: m.retweet_count,
            quotes: m.quote_count,
            views: m.impression_count,
            bookmarks: m.bookmark_count,
          }),
        });
      }
      nextToken = body.meta?.next_token;
      if (!nextToken) break;
    }
    return finalizeItems(ctx.plan, items, ctx.limit);
  },
};

function minIso(iso: string, t: number): string {
  const u = Date.parse(iso);
  return new Date(Number.isNaN(u) ? t : Math.min(u, t)).toISOString();
}
