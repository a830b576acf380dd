import type { QueryPlan, Connector, ConnectorContext, SourceItem } from './types.js';
import { SourceError } from './types.js';
import type { Verdict } from './retry-policy.js';
import { processTokenCache, tokenCacheKey, withToken, type FreshToken } from './token-cache.js';
import {
  defaultVerdict,
  credentialsRejectedMessage,
  verdictError,
  finalizeItems,
  formBody,
  getJson,
  joinUrl,
  maxPagesFor,
  metricsOf,
  noSearchTermsError,
  planTerms,
  quoteBigIntegers,
  requireCredential,
  toIso,
} from './http-json.js';

const REQUIRED = ['client_key', 'client_secret'];
const FIELDS = 'id,video_description,create_time,username,like_count,comment_count,share_count,view_count';
const DAY = 86_400_000;
/** The Research API accepts at most 30 days between start_date and end_date. */
const MAX_WINDOW_DAYS = 30;

/** One condition of a Research API query. */
export interface TiktokCondition {
  operation: 'EQ' | 'IN' | 'GT' | 'GTE' | 'LT' | 'LTE';
  field_name: string;
  field_values: string[];
}
/** The `query` object of POST /v2/research/video/query/. */
export interface TiktokQuery {
  and?: TiktokCondition[];
  or?: TiktokCondition[];
  not?: TiktokCondition[];
}

interface TiktokVideo {
  id: string | number;
  video_description?: string;
  create_time?: number;
  username?: string;
  like_count?: number;
  comment_count?: number;
  share_count?: number;
  view_count?: number;
}
interface TiktokQueryResponse {
  data?: { videos?: TiktokVideo[]; cursor?: number; has_more?: boolean; search_id?: string };
  error?: { code?: string; message?: string; log_id?: string };
}
interface TiktokToken {
  access_token?: string;
  expires_in?: number;
  token_type?: string;
  error?: string;
  error_description?: string;
}

/**
 * Research API query for the plan. The API ANDs `and`, requires one of `or`, and excludes `not`:
 * - each keyword and phrase → `keyword EQ [term]` in `and` (all must match the description);
 * - with no keyword/phrase, hashtags → `hashtag_name IN [...]` and mentions → `keyword IN [...]` in `or`
 *   (when keywords exist, hashtags/mentions cannot be expressed as alternatives and are left out);
 * - exclusions → `keyword IN [...]` in `not`.
 * Returns undefined when the plan has no positive term. Language has no Research API filter.
 */
export function buildTiktokQuery(plan: QueryPlan): TiktokQuery | undefined {
  const t = planTerms(plan);
  const q: TiktokQuery = {};
  const core = [...t.keywords, ...t.phrases];
  if (core.length) {
    q.and = core.map((v) => ({ operation: 'EQ', field_name: 'keyword', field_values: [v] }));
  } else {
    const or: TiktokCondition[] = [];
    if (t.hashtags.length) or.push({ operation: 'IN', field_name: 'hashtag_name', field_values: t.hashtags.map((h) => h.replace(/\s+/g, '')) });
    if (t.mentions.length) or.push({ operation: 'IN', field_name: 'keyword', field_values: t.mentions });
    if (!or.length) return undefined;
    q.or = or;
  }
  if (t.exclude.length) q.not = [{ operation: 'IN', field_name: 'keyword', field_values: t.exclude }];
  return q;
}

/** `YYYYMMDD` (UTC). */
export function tiktokDate(t: number): string {
  return new Date(t).toISOString().slice(0, 10).replace(/-/g, '');
}

/**
 * start_date/end_date for the plan: UTC days, end no later than today, window clamped to the
 * newest 30 days of the plan (the API refuses longer windows).
 */
export function tiktokDateRange(plan: QueryPlan, now: number = Date.now()): { start_date: string; end_date: string } {
  const untilT = Math.min(Number.isNaN(Date.parse(plan.until)) ? now : Date.parse(plan.until), now);
  const endDay = Math.floor(untilT / DAY) * DAY;
  const sinceT = Number.isNaN(Date.parse(plan.since)) ? endDay : Date.parse(plan.since);
  const startDay = Math.max(Math.floor(sinceT / DAY) * DAY, endDay - (MAX_WINDOW_DAYS - 1) * DAY);
  return { start_date: tiktokDate(Math.min(startDay, endDay)), end_date: tiktokDate(endDay) };
}

/** Next 00:00 UTC, when the Research API's daily quota resets (Research API FAQ: "The daily quota resets at 12 AM UTC"). */
export function nextUtcMidnight(now: number): Date {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
}

/**
 * TikTok API v2 errors (https://developers.tiktok.com/doc/tiktok-api-v2-error-handling): the body's
 * `error.code` decides, whatever the status — access_token_invalid (401) → credentials (token
 * refreshed once), scope_not_authorized / scope_permission_missed (401) → permission (the project is
 * not approved for the Research API), invalid_params (400) → invalid query, rate_limit_exceeded
 * (429, one-minute sliding window, https://developers.tiktok.com/doc/tiktok-api-v2-rate-limit) → rate,
 * daily_quota_limit_exceeded (429) → quota (1,000 requests / 100,000 records a day, reset 00:00 UTC,
 * https://developers.tiktok.com/doc/research-api-faq/), internal_error (500) → platform down.
 */
export function classifyTiktok(status: number, body: unknown, headers: Headers, now: number): Verdict | undefined {
  const e = (body as TiktokQueryResponse | undefined)?.error;
  const code = typeof e?.code === 'string' ? e.code : '';
  const detail = [code, e?.message].filter(Boolean).join(': ') || undefined;
  if (code === 'access_token_invalid') return { kind: 'credentials', temporary: false, detail };
  if (code === 'scope_not_authorized' || code === 'scope_permission_missed') {
    return { kind: 'permission', temporary: false, detail, hint: 'the client key is not approved for the Research API (apply at developers.tiktok.com → Research Tools)' };
  }
  if (code === 'invalid_params') return { kind: 'invalid_query', temporary: false, detail };
  if (/quota/.test(code)) {
    return { kind: 'quota', temporary: false, detail, quota: { name: 'TikTok Research API daily request quota', resetsAt: nextUtcMidnight(now) } };
  }
  if (code === 'rate_limit_exceeded') return { ...defaultVerdict(429, body, headers, now), detail };
  if (code === 'internal_error') return { kind: 'platform_down', temporary: true, detail };
  return undefined;
}

/** TikTok — Research API video query with a client access token (client credentials). */
export const tiktokConnector: Connector = {
  name: 'tiktok',
  defaultBaseUrl: 'https://open.tiktokapis.com',
  credentialFields: [
    { name: 'client_key', required: true, description: 'Client key of an approved TikTok Research API project (developers.tiktok.com → Research projects).' },
    { name: 'client_secret', required: true, description: 'Client secret of that Research API project.' },
  ],
  accessNotes:
    'Needs approved access to the TikTok Research API (academic/non-profit researchers in eligible regions apply at ' +
    'developers.tiktok.com; commercial use is not granted). The project\'s client key and secret obtain a client access token ' +
    '(client_credentials). Queries cover at most 30 days per request (older parts of a longer window are dropped), data lags ' +
    'about 48 hours, and there is a daily request quota. Add them with PUT /dashboard/api/sources/tiktok {"client_key":"…","client_secret":"…"}.',

  async search(ctx: ConnectorContext): Promise<SourceItem[]> {
    const clientKey = requireCredential(ctx, 'tiktok', 'client_key', REQUIRED);
    const clientSecret = requireCredential(ctx, 'tiktok', 'client_secret', REQUIRED);
    const query = buildTiktokQuery(ctx.plan);
    if (!query) throw noSearchTermsError('tiktok');
    const tokenOpts = {
      cache: ctx.tokenCache ?? processTokenCache,
      key: ctx.tenantId ? tokenCacheKey(ctx.tenantId, 'tiktok', { clientKey, clientSecret, base: ctx.baseUrl }) : undefined,
      now: ctx.now ?? Date.now,
      fetchToken: () => fetchToken(ctx, clientKey, clientSecret),
    };
    const { start_date, end_date } = tiktokDateRange(ctx.plan);

    const items: SourceItem[] = [];
    let cursor: number | undefined;
    let searchId: string | undefined;
    const maxPages = maxPagesFor(ctx.limit, 100);
    const url = `${joinUrl(ctx.baseUrl, '/v2/research/video/query/')}?fields=${FIELDS}`;
    for (let page = 0; page < maxPages && items.length < ctx.limit; page++) {
      const body: Record<string, unknown> = {
        query,
        start_date,
        end_date,
        max_count: Math.min(100, Math.max(1, ctx.limit - items.length)),
        is_random: false,
      };
      if (cursor !== undefined) body.cursor = cursor;
      if (searchId) body.search_id = searchId;
      const res = await withToken(tokenOpts, (token) =>
        getJson<TiktokQueryResponse>(
          ctx,
          url,
          { method: 'POST', body: JSON.stringify(body), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
          { source: 'tiktok', classify: classifyTiktok, parse: (text) => JSON.parse(quoteBigIntegers(text, ['id', 'search_id'])) },
        ),
      );
      if (res.error?.code && res.error.code !== 'ok') {
        const v = classifyTiktok(200, res, new Headers(), (ctx.now ?? Date.now)());
        throw v ? verdictError('tiktok', 200, v, (ctx.now ?? Date.now)()) : new SourceError(`tiktok API error (${res.error.code})${res.error.message ? `: ${res.error.message}` : ''}`);
      }
      for (const v of res.data?.videos ?? []) {
        const created = toIso(v.create_time);
        if (v.id === undefined || v.id === null || !created) continue;
        const id = String(v.id);
        items.push({
          source: 'tiktok',
          id,
          url: v.username ? `https://www.tiktok.com/@${v.username}/video/${id}` : `https://www.tiktok.com/video/${id}`,
          author: v.username ?? null,
          text: v.video_description ?? '',
          created_at: created,
          metrics: metricsOf({ likes: v.like_count, comments: v.comment_count, shares: v.share_count, views: v.view_count }),
        });
      }
      if (!res.data?.has_more || res.data.cursor === undefined || !(res.data.videos ?? []).length) break;
      cursor = res.data.cursor;
      searchId = res.data.search_id ?? searchId;
    }
    return finalizeItems(ctx.plan, sortNewestFirst(items), ctx.limit);
  },
};

async function fetchToken(ctx: ConnectorContext, clientKey: string, clientSecret: string): Promise<FreshToken> {
  const body = await getJson<TiktokToken>(
    ctx,
    joinUrl(ctx.baseUrl, '/v2/oauth/token/'),
    {
      method: 'POST',
      body: formBody({ client_key: clientKey, client_secret: clientSecret, grant_type: 'client_credentials' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-cache' },
    },
    {
      source: 'tiktok',
      what: 'token request',
      // OAuth errors ({error:"invalid_client", error_description}) mean bad client key/secret whatever the status.
      mapError: (status, b) => {
        const e = b as TiktokToken | undefined;
        if (status < 500 && status !== 429 && e && typeof e.error === 'string' && /invalid_client|unauthorized_client|access_denied/.test(e.error)) {
          return new SourceError(credentialsRejectedMessage('tiktok', status, [e.error, e.error_description].filter(Boolean).join(': ')), undefined, false, { kind: 'credentials', status });
        }
        return undefined;
      },
    },
  );
  if (!body.access_token) {
    const why = [body.error, body.error_description].filter(Boolean).join(': ') || 'no access_token in the token response';
    throw new SourceError(credentialsRejectedMessage('tiktok', 'token request', why), undefined, false, { kind: 'credentials' });
  }
  return { token: body.access_token, expiresInSeconds: body.expires_in };
}

/** The Research API does not promise an order; callers cut to the limit newest-first. */
function sortNewestFirst(items: SourceItem[]): SourceItem[] {
  return [...items].sort((a, b) => b.created_at.localeCompare(a.created_at));
}
