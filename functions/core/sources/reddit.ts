import type { QueryPlan, Connector, ConnectorContext, SourceItem } from './types.js';
import { SourceError } from './types.js';
import {
  buildSearchText,
  credentialsRejectedMessage,
  finalizeItems,
  formBody,
  getJson,
  joinUrl,
  maxPagesFor,
  metricsOf,
  noSearchTermsError,
  optionalCredential,
  quoteTerm,
  requireCredential,
  toIso,
} from './http-json.js';

/** Default API host; its token endpoint lives on www.reddit.com. */
export const REDDIT_DEFAULT_BASE_URL = 'https://oauth.reddit.com';
const REDDIT_DEFAULT_TOKEN_URL = 'https://www.reddit.com/api/v1/access_token';
const REQUIRED = ['client_id', 'client_secret'];

interface RedditPost {
  id: string;
  name?: string;
  title?: string;
  selftext?: string;
  author?: string;
  permalink?: string;
  url?: string;
  created_utc?: number;
  score?: number;
  num_comments?: number;
  upvote_ratio?: number;
  subreddit?: string;
}
interface RedditListing {
  kind?: string;
  data?: { after?: string | null; before?: string | null; dist?: number; children?: { kind: string; data: RedditPost }[] };
}
interface RedditToken {
  access_token?: string;
  token_type?: string;
  expires_in?: number;
  scope?: string;
  error?: string;
  error_description?: string;
}

/**
 * Token endpoint for a base URL: the real `https://oauth.reddit.com` API takes tokens from
 * `https://www.reddit.com/api/v1/access_token`; an overridden base (a fake) serves both.
 */
export function redditTokenUrl(baseUrl: string): string {
  const b = baseUrl.replace(/\/+$/, '');
  return b === REDDIT_DEFAULT_BASE_URL ? REDDIT_DEFAULT_TOKEN_URL : `${b}/api/v1/access_token`;
}

/**
 * Reddit search query: keywords AND-ed, phrases quoted, hashtags as plain words, mentions as
 * `author:name`, exclusions as `NOT term`. Reddit search has no language filter.
 */
export function buildRedditQuery(plan: QueryPlan): string {
  return buildSearchText(plan, {
    hashtag: (t) => t,
    mention: (m) => `author:${m}`,
    exclude: (t) => `NOT ${quoteTerm(t)}`,
  });
}

/** Reddit's `t` filter: the smallest period that still covers `since`. */
export function redditTimeFilter(since: string, now: number = Date.now()): 'hour' | 'day' | 'week' | 'month' | 'year' | 'all' {
  const s = Date.parse(since);
  if (Number.isNaN(s)) return 'all';
  const age = now - s;
  const H = 3_600_000;
  if (age <= H) return 'hour';
  if (age <= 24 * H) return 'day';
  if (age <= 7 * 24 * H) return 'week';
  if (age <= 31 * 24 * H) return 'month';
  if (age <= 366 * 24 * H) return 'year';
  return 'all';
}

/** Reddit — OAuth2 (script or web app) and `GET /search` sorted by new. */
export const redditConnector: Connector = {
  name: 'reddit',
  defaultBaseUrl: REDDIT_DEFAULT_BASE_URL,
  credentialFields: [
    { name: 'client_id', required: true, description: 'Client ID of a Reddit app (https://www.reddit.com/prefs/apps, type "script" or "web app").' },
    { name: 'client_secret', required: true, description: 'Secret of that Reddit app.' },
    { name: 'username', required: false, description: 'Reddit username (script apps: password grant). Without it the client-credentials grant is used.' },
    { name: 'password', required: false, description: 'Password of that Reddit account (script apps only).' },
    { name: 'user_agent', required: false, description: 'User-Agent per Reddit API rules, e.g. "web:com.example.gleaner:v1.0 (by /u/you)".' },
  ],
  accessNotes:
    'Needs a Reddit app registered at https://www.reddit.com/prefs/apps ("script" or "web app") and approval for API use under ' +
    "Reddit's Data API terms (commercial use requires an agreement with Reddit). Uses application-only OAuth (client credentials), " +
    'or the password grant when username/password of the script app owner are given. Add them with ' +
    'PUT /dashboard/api/sources/reddit {"client_id":"…","client_secret":"…"}.',

  async search(ctx: ConnectorContext): Promise<SourceItem[]> {
    const clientId = requireCredential(ctx, 'reddit', 'client_id', REQUIRED);
    const clientSecret = requireCredential(ctx, 'reddit', 'client_secret', REQUIRED);
    const username = optionalCredential(ctx, 'username');
    const password = optionalCredential(ctx, 'password');
    const userAgent = optionalCredential(ctx, 'user_agent') ?? `web:gleaner:v0.1 (by /u/${username ?? 'gleaner'})`;
    const q = buildRedditQuery(ctx.plan);
    if (!q) throw noSearchTermsError('reddit');

    const token = await fetchToken(ctx, { clientId, clientSecret, username, password, userAgent });
    const since = Date.parse(ctx.plan.since);
    const t = redditTimeFilter(ctx.plan.since);

    const items: SourceItem[] = [];
    let after: string | undefined;
    const maxPages = maxPagesFor(ctx.limit, 25);
    for (let page = 0; page < maxPages && items.length < ctx.limit; page++) {
      const url = joinUrl(ctx.baseUrl, '/search', {
        q,
        sort: 'new',
        limit: 100,
        t,
        type: 'link',
        restrict_sr: 'false',
        raw_json: 1,
        after,
      });
      const listing = await getJson<RedditListing>(
        ctx,
        url,
        { headers: { authorization: `bearer ${token}`, 'user-agent': userAgent } },
        { source: 'reddit' },
      );
      const children = listing.data?.children ?? [];
      let reachedOlder = false;
      for (const child of children) {
        if (child.kind !== 't3' || !child.data?.id) continue;
        const p = child.data;
        const created = toIso(p.created_utc);
        if (!created) continue;
        if (!Number.isNaN(since) && Date.parse(created) < since) reachedOlder = true;
        items.push({
          source: 'reddit',
          id: String(p.id),
          url: p.permalink ? `https://www.reddit.com${p.permalink}` : `https://www.reddit.com/comments/${p.id}`,
          author: p.author && p.author !== '[deleted]' ? p.author : null,
          text: [p.title ?? '', p.selftext ?? ''].filter((s) => s.trim()).join('\n\n'),
          created_at: created,
          metrics: metricsOf({ score: p.score, comments: p.num_comments, upvote_ratio: p.upvote_ratio }),
        });
      }
      after = listing.data?.after ?? undefined;
      // Sorted by new: once a page reaches posts older than `since`, later pages are older still.
      if (!after || reachedOlder || children.length === 0) break;
    }
    return finalizeItems(ctx.plan, items, ctx.limit);
  },
};

async function fetchToken(
  ctx: ConnectorContext,
  c: { clientId: string; clientSecret: string; username?: string; password?: string; userAgent: string },
): Promise<string> {
  const grant =
    c.username && c.password
      ? formBody({ grant_type: 'password', username: c.username, password: c.password })
      : formBody({ grant_type: 'client_credentials' });
  const basic = Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64');
  const body = await getJson<RedditToken>(
    ctx,
    redditTokenUrl(ctx.baseUrl),
    {
      method: 'POST',
      body: grant.toString(),
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': c.userAgent },
    },
    { source: 'reddit', what: 'token request' },
  );
  if (!body.access_token) {
    // Reddit answers a wrong username/password with 200 {"error":"invalid_grant"}.
    const why = [body.error, body.error_description].filter(Boolean).join(': ') || 'no access_token in the token response';
    throw new SourceError(credentialsRejectedMessage('reddit', 'token request', why));
  }
  return body.access_token;
}
