import type { Connector, ConnectorContext, SourceItem } from './types.js';
import { SourceError } from './types.js';
import { finalizeItems, inPlanWindow, joinUrl, metricsOf, planTerms, requireCredential, toIso } from './http-json.js';
import { graphGet, graphNextUrl, graphVersion, type GraphFixHints, type GraphPaging } from './graph-api.js';
import { IG_HASHTAG_LIMIT } from './source-ledger.js';
import { describeWait } from './retry-policy.js';
import { byNewest, matchesPlanText } from './plan-text.js';

/**
 * Instagram connector: hashtag search through the Instagram Graph API (Instagram API with Facebook
 * Login), with the tenant's own token and Instagram professional account.
 *
 *   GET /<version>/ig_hashtag_search?user_id=<ig_user_id>&q=<tag>        → {data:[{id}]}
 *   GET /<version>/<hashtag-id>/recent_media?user_id=…&fields=…&limit=50  → {data:[…], paging:{next}}
 *
 * The only public-content query Instagram offers is "media with this hashtag", so the plan's hashtags
 * are searched (or, when it has none, hashtags derived from its keywords/phrases: lowercase, no spaces).
 * The hashtag itself is the match; exclusions and the time window are applied here. recent_media only
 * covers the last 24 hours; the author's username is not available on hashtag media (author is null).
 *
 * recent_media promises no order, so paging never stops early on dates: it follows `paging.next`
 * until the list ends (or the page budget), and items are keyed by the platform's media id. Each new
 * hashtag is counted against the account's 30-per-rolling-7-days budget (source-ledger.ts) before it
 * is searched; when the budget is spent the query says so and when a slot frees up.
 */

const SOURCE = 'instagram';
const PAGE_SIZE = 50;
/** Most result pages read per hashtag (50 media each). */
const MAX_PAGES_PER_TAG = 10;
/** Most hashtags searched per query: each new hashtag counts against the 30-per-7-days account limit. */
export const MAX_HASHTAGS_PER_QUERY = 5;
const MEDIA_FIELDS = 'id,caption,media_type,permalink,timestamp,like_count,comments_count';

const IG_HINTS: GraphFixHints = {
  token:
    'The access token is invalid or has expired: create a new long-lived User token (instagram_basic, pages_show_list, pages_read_engagement) for the Facebook account linked to the Instagram professional account',
  permission:
    'The token or app lacks access: the app needs the Instagram Public Content Access feature and the instagram_basic permission, and ig_user_id must be the Instagram professional account linked to a Page the user manages',
};

interface IgMedia {
  id: string;
  caption?: string;
  media_type?: string;
  permalink?: string;
  timestamp?: string;
  like_count?: number;
  comments_count?: number;
}

interface GraphList<T> {
  data?: T[];
  paging?: GraphPaging;
}

/** A keyword as a hashtag: lowercase, letters/digits/underscore only ("Acme Shoes" → "acmeshoes"). */
export function toHashtag(term: string): string {
  return term
    .normalize('NFKC')
    .toLowerCase()
    .replace(/^#+/, '')
    .replace(/[^\p{L}\p{N}_]/gu, '');
}

/** Hashtags to search: the plan's hashtags, else derived from keywords then phrases; de-duplicated, capped. */
export function hashtagsForPlan(plan: Parameters<typeof planTerms>[0]): string[] {
  const t = planTerms(plan);
  const source = t.hashtags.length ? t.hashtags : [...t.keywords, ...t.phrases];
  const out: string[] = [];
  for (const s of source) {
    const tag = toHashtag(s);
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out.slice(0, MAX_HASHTAGS_PER_QUERY);
}

function mapMedia(m: IgMedia): SourceItem | undefined {
  if (!m || typeof m.id !== 'string') return undefined;
  const created = toIso(m.timestamp);
  if (!created) return undefined;
  return {
    source: SOURCE,
    id: m.id,
    // Without a permalink there is no public URL; identity stays the media id (mergeItems never
    // de-duplicates on a bare site root).
    url: m.permalink || `https://www.instagram.com/`,
    author: null,
    text: m.caption ?? '',
    created_at: created,
    metrics: metricsOf({ likes: m.like_count, comments: m.comments_count }),
  };
}

async function hashtagId(ctx: ConnectorContext, token: string, userId: string, tag: string): Promise<string | undefined> {
  const url = joinUrl(ctx.baseUrl, `/${graphVersion(ctx)}/ig_hashtag_search`, { user_id: userId, q: tag, access_token: token });
  const body = await graphGet<GraphList<{ id?: string }>>(ctx, SOURCE, url, IG_HINTS, `hashtag search #${tag}`);
  const id = body.data?.find((d) => d && typeof d.id === 'string')?.id;
  return id || undefined;
}

async function tagMedia(ctx: ConnectorContext, token: string, userId: string, tag: string, tagId: string, want: number): Promise<SourceItem[]> {
  const out: SourceItem[] = [];
  const ids = new Set<string>();
  const seen = new Set<string>();
  let url: string | undefined = joinUrl(ctx.baseUrl, `/${graphVersion(ctx)}/${encodeURIComponent(tagId)}/recent_media`, {
    user_id: userId,
    fields: MEDIA_FIELDS,
    limit: PAGE_SIZE,
    access_token: token,
  });
  for (let i = 0; url && i < MAX_PAGES_PER_TAG && out.length < want; i++) {
    const body: GraphList<IgMedia> = await graphGet<GraphList<IgMedia>>(ctx, SOURCE, url, IG_HINTS, `recent media #${tag}`);
    const data = body.data ?? [];
    for (const m of data) {
      const item = mapMedia(m);
      if (!item || ids.has(item.id)) continue;
      if (!inPlanWindow(ctx.plan, item.created_at)) continue;
      // The hashtag is the match (no keyword requirement); exclusions still apply.
      if (!matchesPlanText(ctx.plan, item.text, { excludeOnly: true })) continue;
      ids.add(item.id);
      out.push(item);
      if (out.length >= want) break;
    }
    // No ordering is documented for recent_media: only the end of the list (no `next`) stops paging.
    url = graphNextUrl(url, body.paging, seen);
  }
  return out;
}

export const instagramConnector: Connector = {
  name: 'instagram',
  defaultBaseUrl: 'https://graph.facebook.com',
  credentialFields: [
    {
      name: 'access_token',
      required: true,
      description:
        'Graph API User access token (long-lived) with instagram_basic (plus pages_show_list / pages_read_engagement) of the Facebook account linked to the Instagram professional account; the app needs the Instagram Public Content Access feature.',
    },
    {
      name: 'ig_user_id',
      required: true,
      description: 'Id of the Instagram professional (Business or Creator) account making the hashtag queries (GET /me/accounts?fields=instagram_business_account).',
    },
    {
      name: 'app_secret',
      required: false,
      description: 'Optional App Secret of the Meta app; when set, every call carries appsecret_proof (needed when the app has "Require App Secret" on).',
    },
  ],
  accessNotes:
    'Searches recent public Instagram media by hashtag with the Instagram Graph API (Instagram API with Facebook Login; Graph version set per deployment), using the tenant\'s own token and Instagram professional account. ' +
    'Requires a Meta app with the Instagram Public Content Access feature (app review), a long-lived User token with instagram_basic (and pages_show_list, pages_read_engagement) of a user who manages the Facebook Page linked to the Instagram Business/Creator account, and that account\'s id as ig_user_id; store them with PUT /dashboard/api/sources/instagram {"access_token":"…","ig_user_id":"…"}. ' +
    'Only hashtags can be searched: the plan\'s hashtags are used, or hashtags derived from its keywords (lowercase, spaces removed) when it has none. ' +
    `Instagram allows at most 30 unique hashtags per account in any 7-day period: Gleaner counts them per account across queries and jobs, searches at most ${MAX_HASHTAGS_PER_QUERY} hashtags per query, and reports when the budget is spent; reuse hashtags to save budget. ` +
    'recent_media returns media from the last 24 hours only; the time window and exclusions are applied here. Usernames are not available for hashtag media (author is null). ' +
    'Metrics: likes and comments (like_count may be missing when the owner hides it). Graph API rate limits (codes 4, 17, 32, 613) and temporary errors (1, 2, 341, is_transient) are retried within the query\'s retry budget.',

  async search(ctx: ConnectorContext): Promise<SourceItem[]> {
    const fields = ['access_token', 'ig_user_id'];
    const token = requireCredential(ctx, SOURCE, 'access_token', fields);
    const userId = requireCredential(ctx, SOURCE, 'ig_user_id', fields);
    if (ctx.limit <= 0) return [];
    const tags = hashtagsForPlan(ctx.plan);
    if (!tags.length) {
      throw new SourceError('instagram can only search by hashtag, and the query has no hashtag or keyword to search; add a #hashtag or a keyword to the prompt');
    }

    const all: SourceItem[] = [];
    let searchable = tags;
    if (ctx.ledger) {
      const now = new Date((ctx.now ?? Date.now)());
      const r = await ctx.ledger.reserveHashtags(userId, tags, now);
      if (!r.allowed.length) {
        throw new SourceError(
          `instagram quota exhausted: hashtag budget of account ${userId} (${IG_HASHTAG_LIMIT} unique hashtags per rolling 7 days) is spent, so #${r.refused.join(', #')} cannot be searched` +
            (r.nextFreeAt ? `; the next hashtag frees up at ${r.nextFreeAt.toISOString()} (${describeWait(r.nextFreeAt, now.getTime())})` : '') +
            '; reuse hashtags already searched this week',
          undefined,
          false,
          { kind: 'quota', resetsAt: r.nextFreeAt },
        );
      }
      searchable = r.allowed;
    }
    for (const tag of searchable) {
      const id = await hashtagId(ctx, token, userId, tag);
      if (!id) continue; // Unknown hashtag: nothing to read.
      all.push(...(await tagMedia(ctx, token, userId, tag, id, ctx.limit)));
    }
    return finalizeItems(ctx.plan, all.sort(byNewest), ctx.limit);
  },
};
