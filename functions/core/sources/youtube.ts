import type { QueryPlan, Connector, ConnectorContext, SourceItem } from './types.js';
import { SourceError } from './types.js';
import {
  buildSearchText,
  credentialsRejectedMessage,
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
 * Google answers an invalid key with 400 (reason keyInvalid / API_KEY_INVALID) and an exhausted
 * quota with 403 quotaExceeded: neither is what the generic mapping would say.
 */
function mapYoutubeError(status: number, body: unknown): SourceError | undefined {
  const e = (body as GoogleErrorBody | undefined)?.error;
  if (!e) return undefined;
  const reasons = [...(e.errors ?? []).map((x) => x.reason), ...(e.details ?? []).map((x) => x.reason)].filter(Boolean) as string[];
  const msg = platformErrorMessage(body)?.replace(/<[^>]+>/g, '');
  if (reasons.some((r) => /keyInvalid|API_KEY_INVALID|keyExpired|API_KEY_/i.test(r))) {
    return new SourceError(credentialsRejectedMessage('youtube', status, msg));
  }
  // Daily quota: waiting a few seconds will not help. (rateLimitExceeded is short-lived: default retry.)
  if (status !== 429 && reasons.some((r) => /^(quotaExceeded|dailyLimitExceeded)$/i.test(r))) {
    return new SourceError(
      `youtube quota exceeded (${status})${msg ? `: ${msg}` : ''}; the Google Cloud project's daily YouTube Data API quota resets at midnight Pacific Time`,
      undefined,
      true,
    );
  }
  return undefined;
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
  ],
  accessNotes:
    'Needs a Google Cloud project with "YouTube Data API v3" enabled and an API key (restrict it to that API). ' +
    'search.list costs 100 quota units per page of 50 and videos.list 1 unit; the default quota is 10,000 units/day. ' +
    'Add it with PUT /dashboard/api/sources/youtube {"api_key":"…"}.',

  async search(ctx: ConnectorContext): Promise<SourceItem[]> {
    const key = requireCredential(ctx, 'youtube', 'api_key');
    const q = buildYoutubeQuery(ctx.plan);
    if (!q) throw noSearchTermsError('youtube');
    const opts = { source: 'youtube', mapError: mapYoutubeError };
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
      const body = await getJson<YtSearchResponse>(ctx, url, undefined, opts);
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
      if (!pageToken || !(body.items ?? []).length) break;
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
      const stats = await getJson<YtVideosResponse>(ctx, url, undefined, opts);
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
