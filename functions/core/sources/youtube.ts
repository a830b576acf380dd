import type { QueryPlan, Connector, ConnectorContext, SourceItem } from './types.js';
import { SourceError } from './types.js';
import type { Verdict } from './retry-policy.js';
import { describeWait } from './retry-policy.js';
import { YOUTUBE_DEFAULT_DAILY_UNITS, YOUTUBE_UNIT_COST, nextPacificMidnight } from './source-ledger.js';
import {
  buildSearchText,
  defaultVerdict,
  optionalCredential,
  finalizeItems,
  getJson,
  joinUrl,
  maxPagesFor,
  metricsOf,
  noSearchTermsError,
  platformErrorMessage,
  quoteTerm,
  requireCredential,
  rfc3339,
  toIso,
} from './http-json.js';

interface YtSearchResponse {
  nextPageToken?: string;
  pageInfo?: { totalResults?: number; resultsPerPage?: number };
  items?: {
    id?: { kind?: string; videoId?: string };
    snippet?: { publishedAt?: string; channelId?: string; title?: string; description?: string; channelTitle?: string };
  }[];
}
interface YtVideosResponse {
  items?: { id: string; statistics?: { viewCount?: string; likeCount?: string; commentCount?: string; favoriteCount?: string } }[];
}
interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string; errors?: { reason?: string; domain?: string; message?: string }[]; details?: { reason?: string }[] };
}

/**
 * YouTube `q`: keywords AND-ed, phrases quoted, hashtags and @handles as alternatives joined with
 * `|` (YouTube's OR; it has no grouping), exclusions as `-term`.
 */
export function buildYoutubeQuery(plan: QueryPlan): string {
  return buildSearchText(plan, {
    or: '|',
    group: false,
    hashtag: (t) => `#${t.replace(/\s+/g, '')}`,
    mention: (m) => `@${m}`,
    exclude: (t) => `-${quoteTerm(t)}`,
  });
}

/**
 * YouTube Data API errors (https://developers.google.com/youtube/v3/docs/errors, Google's error
 * envelope `{error:{code,message,errors:[{reason,domain}],status,details:[{reason}]}}`):
 * - keyInvalid / keyExpired / API_KEY_INVALID → credentials;
 * - accessNotConfigured / SERVICE_DISABLED (API not enabled in the project), forbidden, ipRefererBlocked,
 *   API_KEY_*_BLOCKED (key restrictions) → permission, with what to change;
 * - quotaExceeded / dailyLimitExceeded → quota, reset at midnight Pacific Time (getting-started#quota);
 * - rateLimitExceeded / userRateLimitExceeded (403 or 429) → rate, retried (temporary);
 * - other 400 reasons (invalidSearchFilter, invalidParameter, …) → invalid query; 5xx backendError → platform down.
 */
export function classifyYoutube(status: number, body: unknown, headers: Headers, now: number): Verdict | undefined {
  const e = (body as GoogleErrorBody | undefined)?.error;
  if (!e) return undefined;
  const reasons = [...(e.errors ?? []).map((x) => x.reason), ...(e.details ?? []).map((x) => x.reason)].filter(Boolean) as string[];
  const has = (re: RegExp) => reasons.some((r) => re.test(r));
  const detail = platformErrorMessage(body)?.replace(/<[^>]+>/g, '');
  if (has(/^(keyInvalid|keyExpired|API_KEY_INVALID|API_KEY_EXPIRED)$/)) return { kind: 'credentials', temporary: false, detail };
  if (has(/^(quotaExceeded|dailyLimitExceeded)$/)) {
    return { kind: 'quota', temporary: false, detail, quota: { name: 'YouTube Data API daily quota (units of the Google Cloud project)', resetsAt: nextPacificMidnight(new Date(now)) } };
  }
  if (has(/^(rateLimitExceeded|userRateLimitExceeded|RATE_LIMIT_EXCEEDED)$/)) return { ...defaultVerdict(429, body, headers, now), detail };
  if (has(/^(accessNotConfigured|SERVICE_DISABLED)$/)) {
    return { kind: 'permission', temporary: false, detail, hint: 'enable "YouTube Data API v3" in the Google Cloud project of this API key (APIs & Services → Library)' };
  }
  if (has(/^(forbidden|ipRefererBlocked|API_KEY_SERVICE_BLOCKED|API_KEY_HTTP_REFERRER_BLOCKED|API_KEY_IP_ADDRESS_BLOCKED|API_KEY_ANDROID_APP_BLOCKED|API_KEY_IOS_APP_BLOCKED)$/)) {
    return { kind: 'permission', temporary: false, detail, hint: 'the API key\'s restrictions refuse this server: allow the YouTube Data API v3 and remove HTTP-referrer/app restrictions (or allow the server\'s IP) in APIs & Services → Credentials' };
  }
  return undefined;
}

/** Daily units of the tenant's project: the `daily_quota` credential, else Google's default 10,000. */
function dailyUnits(ctx: ConnectorContext): number {
  const n = Number(optionalCredential(ctx, 'daily_quota'));
  return Number.isInteger(n) && n > 0 ? n : YOUTUBE_DEFAULT_DAILY_UNITS;
}

/** Most units a query can spend: one search.list per page of 50 and one videos.list per 50 results. */
export function youtubeUnitsEstimate(limit: number): number {
  const pages = Math.ceil(Math.max(1, limit) / 50);
  return pages * YOUTUBE_UNIT_COST.search + pages * YOUTUBE_UNIT_COST.videos;
}

/** YouTube — Data API v3 `search.list` (videos, newest first) then `videos.list` for statistics. */
export const youtubeConnector: Connector = {
  name: 'youtube',
  defaultBaseUrl: 'https://www.googleapis.com',
  credentialFields: [
    {
      name: 'api_key',
      required: true,
      description: 'API key of a Google Cloud project with the YouTube Data API v3 enabled (APIs & Services → Credentials).',
    },
    {
      name: 'daily_quota',
      required: false,
      description: 'Daily quota of that project in units, when Google raised it (default 10000). Gleaner counts units per tenant and refuses a query that would exceed what is left today.',
    },
  ],
  accessNotes:
    'Needs a Google Cloud project with "YouTube Data API v3" enabled and an API key (restrict it to that API). ' +
    'search.list costs 100 quota units per page of 50 and videos.list 1 unit; the default quota is 10,000 units/day, reset at midnight Pacific Time. ' +
    'Gleaner counts the units each query spends (Social page) and refuses a query that would exceed what is left today. ' +
    'Add it with PUT /dashboard/api/sources/youtube {"api_key":"…"}.',

  async search(ctx: ConnectorContext): Promise<SourceItem[]> {
    const key = requireCredential(ctx, 'youtube', 'api_key');
    const q = buildYoutubeQuery(ctx.plan);
    if (!q) throw noSearchTermsError('youtube');
    const limitUnits = dailyUnits(ctx);
    const opts = { source: 'youtube', classify: classifyYoutube };
    const nowMs = () => (ctx.now ?? Date.now)();
    const ledger = ctx.ledger;
    if (ledger) {
      const status = await ledger.units('youtube', limitUnits, new Date(nowMs()));
      const need = youtubeUnitsEstimate(ctx.limit);
      if (need > status.remaining) {
        throw new SourceError(
          `youtube quota exhausted: YouTube Data API daily quota (units): this query may spend up to ${need} units and ${status.remaining} of ${status.limit} are left today; it resets at ${status.resetsAt.toISOString()} (${describeWait(status.resetsAt, nowMs())}); lower the limit or try after the reset`,
          undefined,
          false,
          { kind: 'quota', resetsAt: status.resetsAt },
        );
      }
    }
    /** Calls the API and counts the units it cost (documented per method); a quota error marks today spent. */
    const call = async <T>(url: string, cost: number): Promise<T> => {
      try {
        const body = await getJson<T>(ctx, url, undefined, opts);
        await ledger?.addUnits('youtube', cost, new Date(nowMs()));
        return body;
      } catch (err) {
        if (ledger && err instanceof SourceError && err.kind === 'quota') await ledger.markExhausted('youtube', limitUnits, new Date(nowMs()));
        throw err;
      }
    };
    const lang = ctx.plan.language && /^[a-z]{2,3}(-[A-Za-z]+)?$/.test(ctx.plan.language) ? ctx.plan.language : undefined;

    const found: { id: string; publishedAt: string; title: string; description: string; channel: string | null }[] = [];
    let pageToken: string | undefined;
    const maxPages = maxPagesFor(ctx.limit, 50);
    for (let page = 0; page < maxPages && found.length < ctx.limit; page++) {
      const url = joinUrl(ctx.baseUrl, '/youtube/v3/search', {
        part: 'snippet',
        type: 'video',
        q,
        maxResults: 50,
        order: 'date',
        publishedAfter: validDate(ctx.plan.since) ? rfc3339(ctx.plan.since) : undefined,
        publishedBefore: validDate(ctx.plan.until) ? rfc3339(ctx.plan.until) : undefined,
        relevanceLanguage: lang,
        pageToken,
        key,
      });
      const body = await call<YtSearchResponse>(url, YOUTUBE_UNIT_COST.search);
      for (const it of body.items ?? []) {
        const id = it.id?.videoId;
        const publishedAt = toIso(it.snippet?.publishedAt);
        if (!id || !publishedAt) continue;
        found.push({
          id,
          publishedAt,
          title: decodeEntities(it.snippet?.title ?? ''),
          description: decodeEntities(it.snippet?.description ?? ''),
          channel: it.snippet?.channelTitle ? decodeEntities(it.snippet.channelTitle) : null,
        });
      }
      pageToken = body.nextPageToken;
      // An empty page with a token is not the end (search pages can come back empty); the page budget bounds it.
      if (!pageToken) break;
    }

    const items: SourceItem[] = found.map((v) => ({
      source: 'youtube',
      id: v.id,
      url: `https://www.youtube.com/watch?v=${encodeURIComponent(v.id)}`,
      author: v.channel,
      text: [v.title, v.description].filter((s) => s.trim()).join('\n\n'),
      created_at: v.publishedAt,
      metrics: {},
    }));
    const kept = finalizeItems(ctx.plan, items, ctx.limit);

    // Statistics: videos.list takes up to 50 ids per call.
    const byId = new Map(kept.map((i) => [i.id, i]));
    const ids = [...byId.keys()];
    for (let i = 0; i < ids.length; i += 50) {
      const url = joinUrl(ctx.baseUrl, '/youtube/v3/videos', { part: 'statistics', id: ids.slice(i, i + 50).join(','), maxResults: 50, key });
      const stats = await call<YtVideosResponse>(url, YOUTUBE_UNIT_COST.videos);
      for (const v of stats.items ?? []) {
        const item = byId.get(v.id);
        if (!item || !v.statistics) continue;
        item.metrics = metricsOf({ views: v.statistics.viewCount, likes: v.statistics.likeCount, comments: v.statistics.commentCount });
      }
    }
    return kept;
  },
};

function validDate(s: string | undefined): boolean {
  return !!s && !Number.isNaN(Date.parse(s));
}

/** The API HTML-escapes snippet text (`&#39;`, `&amp;`, `&quot;`). */
function decodeEntities(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
