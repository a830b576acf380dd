import type { SourceItem, Connector, ConnectorContext } from './types.js';
import { SourceError } from './types.js';
import {
  finalizeItems,
  inPlanWindow,
  joinUrl,
  metricsOf,
  optionalCredential,
  requireCredential,
  toIso,
} from './http-json.js';
import { graphGet, graphNextUrl, graphVersion, type GraphFixHints, type GraphPaging } from './graph-api.js';
import { byNewest, matchesPlanText } from './plan-text.js';

/**
 * Facebook connector: posts of the Pages the tenant manages, read through the Graph API with the
 * tenant's own token (no public search exists on Facebook).
 *
 *   GET /v21.0/me/accounts?fields=id,name,access_token          (managed Pages and their Page tokens)
 *   GET /v21.0/{page-id}/posts?fields=…&since=<unix>&until=<unix>&limit=100&after=<cursor>
 *
 * The API filters the time window (since/until); keywords, phrases, hashtags, mentions and exclusions
 * are applied here on the post message (see {@link matchesPlanText}), because the Pages API has no
 * text search.
 */

const SOURCE = 'facebook';
const PAGE_SIZE = 100;
/** Most result pages read per Facebook Page (100 posts each). */
const MAX_PAGES_PER_FEED = 20;
/** Most managed Pages read when they are discovered through /me/accounts. */
const MAX_MANAGED_PAGES = 25;
const POST_FIELDS = 'id,message,created_time,permalink_url,shares,reactions.summary(true),comments.summary(true)';

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
  return joinUrl(ctx.baseUrl, `/${graphVersion(ctx)}${path}`, query);
}

/** Pages managed by the token's user (GET /me/accounts), with their Page tokens. */
async function listManagedPages(ctx: ConnectorContext, token: string): Promise<FbPage[]> {
  const pages: FbPage[] = [];
  let url: string | undefined = graphUrl(ctx, '/me/accounts', { fields: 'id,name,access_token', limit: 100, access_token: token });
  const seen = new Set<string>();
  for (let i = 0; url && i < 10 && pages.length < MAX_MANAGED_PAGES; i++) {
    const body: GraphList<FbPage> = await graphGet<GraphList<FbPage>>(ctx, SOURCE, url, FB_HINTS, 'page list');
    for (const p of body.data ?? []) if (p && typeof p.id === 'string' && !pages.some((x) => x.id === p.id)) pages.push(p);
    url = graphNextUrl(url, body.paging, seen);
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
  const seen = new Set<string>();
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
    // An empty page is not the end while Graph still sends `next` (filtered pages can be empty).
    url = graphNextUrl(url, body.paging, seen);
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
      name: 'app_secret',
      required: false,
      description: 'Optional App Secret of the Meta app; when set, every call carries appsecret_proof (needed when the app has "Require App Secret" on).',
    },
    {
      name: 'page_ids',
      required: false,
      description:
        'Optional comma-separated Page ids to read. When empty, every Page the token manages is read (GET /me/accounts, using each Page token).',
    },
  ],
  accessNotes:
    'Reads posts of the Facebook Pages the tenant manages through the Graph API (version set per deployment, default the newest stable) with the tenant\'s own token; Facebook has no public post search. ' +
    'Create a Meta app (type Business), add Facebook Login for Business, and generate a User token with pages_show_list, pages_read_engagement and pages_read_user_content for an account with a role on the Pages; exchange it for a long-lived token (60 days) or use a System User token, then store it with PUT /dashboard/api/sources/facebook {"access_token":"…","page_ids":"optional,comma,list"}. ' +
    'Without page_ids, Pages come from GET /me/accounts and each is read with its own Page token; with page_ids, the Page tokens from /me/accounts are used when available, else the stored token. ' +
    'The time window is filtered by the API (since/until); keywords, phrases, hashtags, mentions and exclusions are matched here on the post message (all keywords, or any hashtag/mention, none of the exclusions). ' +
    'Metrics: reactions, comments and shares. Graph API rate limits (codes 4, 17, 32, 613) and temporary errors (1, 2, 341, is_transient) are retried within the query\'s retry budget; requests slow down as the usage headers approach 100%.',

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
        if (!(err instanceof SourceError) || (err.kind !== 'other' && err.kind !== 'invalid_query')) throw err;
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
