import type { QueryPlan, Connector, ConnectorContext, SourceItem } from './types.js';
import { SourceError } from './types.js';
import { queryTooLongError } from './query-length.js';
import { processTokenCache, tokenCacheKey, withToken, type FreshToken } from './token-cache.js';
import {
  defaultVerdict,
  DEFAULT_MAX_WAIT_SECONDS,
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
const REQUIRED = ['client_id', 'client_secret', 'app_id', 'username'];
/** Reddit search `q` is limited to 512 characters (https://www.reddit.com/dev/api#GET_search: "q: a string no longer than 512 characters"). */
export const REDDIT_MAX_QUERY_LENGTH = 512;

/**
 * User-Agent per Reddit's API rules (https://github.com/reddit-archive/reddit/wiki/API, "User-Agent"):
 * `<platform>:<app ID>:<version string> (by /u/<reddit username>)`, naming the tenant's own app and
 * account, never a shared one.
 */
export function redditUserAgent(appId: string, username: string, version = 'v1.0'): string {
  return `web:${appId}:${version} (by /u/${username.replace(/^\/?u\//, '')})`;
}

/**
 * Reddit answers (https://support.reddithelp.com/hc/en-us/articles/16160319875092-Reddit-Data-API-Wiki):
 * 429 with `X-Ratelimit-Reset` (seconds until the window resets) → rate; 401 → token (refreshed once);
 * 403 → permission (app not approved, private or quarantined content); 5xx → platform down.
 */
export function classifyReddit(status: number, body: unknown, headers: Headers, now: number) {
  const v = defaultVerdict(status, body, headers, now);
  if (status === 403) {
    return { ...v, hint: 'Reddit refused the app: check it is approved for Data API access and that its User-Agent identifies it (app_id, username)' };
  }
  return v;
}

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
  maxQueryLength: REDDIT_MAX_QUERY_LENGTH,
  searchText: buildRedditQuery,
  credentialFields: [
    { name: 'client_id', required: true, description: 'Client ID of a Reddit app (https://www.reddit.com/prefs/apps, type "script" or "web app").' },
    { name: 'client_secret', required: true, description: 'Secret of that Reddit app.' },
    { name: 'app_id', required: true, description: 'Your app\'s identity for the User-Agent Reddit requires, e.g. "com.example.brandwatch" (User-Agent: web:<app_id>:<version> (by /u/<username>)).' },
    { name: 'username', required: true, description: 'Reddit username of the app\'s developer, named in the User-Agent; with password, the script app\'s password grant is used.' },
    { name: 'password', required: false, description: 'Password of that Reddit account (script apps only). Without it the client-credentials grant is used.' },
    { name: 'app_version', required: false, description: 'Version string of your app in the User-Agent. Default v1.0.' },
  ],
  accessNotes:
    'Needs a Reddit app registered at https://www.reddit.com/prefs/apps ("script" or "web app") and approval for API use under ' +
    "Reddit's Data API terms (commercial use requires an agreement with Reddit). Uses application-only OAuth (client credentials), " +
    'or the password grant when the password of the script app owner is given. Requests identify your app as Reddit asks ' +
    '(User-Agent web:<app_id>:<version> (by /u/<username>)). Tokens are reused until shortly before they expire. Queries longer than 512 characters are refused. Add them with ' +
    'PUT /dashboard/api/sources/reddit {"client_id":"…","client_secret":"…","app_id":"com.example.yourapp","username":"you"}.',

  async search(ctx: ConnectorContext): Promise<SourceItem[]> {
    const clientId = requireCredential(ctx, 'reddit', 'client_id', REQUIRED);
    const clientSecret = requireCredential(ctx, 'reddit', 'client_secret', REQUIRED);
    const appId = requireCredential(ctx, 'reddit', 'app_id', REQUIRED);
    const username = requireCredential(ctx, 'reddit', 'username', REQUIRED);
    const password = optionalCredential(ctx, 'password');
    const userAgent = redditUserAgent(appId, username, optionalCredential(ctx, 'app_version'));
    const q = buildRedditQuery(ctx.plan);
    if (!q) throw noSearchTermsError('reddit');
    if (q.length > REDDIT_MAX_QUERY_LENGTH) throw queryTooLongError('reddit', q.length, REDDIT_MAX_QUERY_LENGTH);

    const tokenOpts = {
      cache: ctx.tokenCache ?? processTokenCache,
      key: ctx.tenantId ? tokenCacheKey(ctx.tenantId, 'reddit', { clientId, clientSecret, username, password, base: ctx.baseUrl }) : undefined,
      now: ctx.now ?? Date.now,
      fetchToken: () => fetchToken(ctx, { clientId, clientSecret, username, password, userAgent }),
    };
    let waitBeforeNext = 0;
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
      // Reddit's X-Ratelimit-Remaining reached 0: wait for the window (X-Ratelimit-Reset) instead of being refused.
      // A window longer than one wait is not waited for here: the request goes out and the policy handles a 429.
      if (waitBeforeNext > 0 && waitBeforeNext <= DEFAULT_MAX_WAIT_SECONDS * 1000 && (!ctx.retryBudget || ctx.retryBudget.take(waitBeforeNext))) {
        await ctx.sleep(waitBeforeNext);
      }
      waitBeforeNext = 0;
      const listing = await withToken(tokenOpts, (token) =>
        getJson<RedditListing>(
          ctx,
          url,
          { headers: { authorization: `bearer ${token}`, 'user-agent': userAgent } },
          {
            source: 'reddit',
            classify: classifyReddit,
            onResponse: (res) => {
              const remaining = Number(res.headers.get('x-ratelimit-remaining'));
              const reset = Number(res.headers.get('x-ratelimit-reset'));
              if (res.headers.has('x-ratelimit-remaining') && remaining < 1 && Number.isFinite(reset)) waitBeforeNext = reset * 1000;
            },
          },
        ),
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
): Promise<FreshToken> {
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
    { source: 'reddit', what: 'token request', classify: classifyReddit },
  );
  if (!body.access_token) {
    // Reddit answers a wrong username/password with 200 {"error":"invalid_grant"}.
    const why = [body.error, body.error_description].filter(Boolean).join(': ') || 'no access_token in the token response';
    throw new SourceError(credentialsRejectedMessage('reddit', 'token request', why), undefined, false, { kind: 'credentials' });
  }
  return { token: body.access_token, expiresInSeconds: body.expires_in };
}
