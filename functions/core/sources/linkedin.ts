import type { Connector, ConnectorContext, SourceItem } from './types.js';
import { SourceError } from './types.js';
import {
  defaultVerdict,
  finalizeItems,
  inPlanWindow,
  getJson,
  joinUrl,
  metricsOf,
  optionalCredential,
  platformErrorMessage,
  requireCredential,
  toIso,
} from './http-json.js';
import { byNewest, matchesPlanText } from './plan-text.js';
import type { Verdict } from './retry-policy.js';

/**
 * LinkedIn connector: posts of the organizations (Company Pages) the tenant administers, read through
 * the Community Management API with the tenant's own 3-legged OAuth token. LinkedIn has no public
 * post search API.
 *
 *   GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED   (when organization_urns is empty)
 *   GET /rest/posts?author=<urn>&q=author&count=100&start=<n>&sortBy=LAST_MODIFIED
 *   GET /rest/organizations/<id>        (organization name, best effort)
 *   GET /rest/socialActions/<post urn>  (likes and comments, best effort)
 *
 * Every call sends `LinkedIn-Version: YYYYMM` and `X-Restli-Protocol-Version: 2.0.0`. The API cannot
 * filter by text or date: the time window, keywords, phrases, hashtags, mentions and exclusions are
 * applied here (see plan-text.ts `matchesPlanText`). Posts are sorted by last modification, so paging
 * stops once a page's posts were last modified before `since`.
 */

const SOURCE = 'linkedin';
const PAGE_SIZE = 100;
/** Most result pages read per organization (100 posts each). */
const MAX_PAGES_PER_ORG = 20;
/** Most organizations read when they are discovered through organizationAcls. */
const MAX_ORGS = 25;
/** Parallel socialActions requests. */
const METRICS_CONCURRENCY = 4;

const FIX_TOKEN =
  'The access_token is invalid or has expired (LinkedIn member tokens last 60 days): re-authorize the app (3-legged OAuth with r_organization_social and rw_organization_admin) and store the new token';
const FIX_PERMISSION =
  'The token lacks access: the app needs the Community Management API product, the token the r_organization_social and rw_organization_admin scopes, and the member must be an ADMINISTRATOR of the organization';

/**
 * Default `LinkedIn-Version`: the month before last (YYYYMM). LinkedIn publishes a version every month
 * and keeps each for about a year, so this stays valid without code changes; override with the
 * `api_version` credential.
 */
export function defaultLinkedInVersion(now: Date = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * LinkedIn API answers (https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling,
 * https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/rate-limits): 401 → token
 * (member tokens last 60 days), 403 → permission, 426 or a version complaint → invalid query (the
 * LinkedIn-Version), 429 without Retry-After → the app's or member's daily limit, which resets at
 * midnight UTC (quota); 429 with Retry-After → a short throttle (rate).
 */
export function classifyLinkedIn(status: number, body: unknown, headers: Headers, now: number): Verdict | undefined {
  const msg = platformErrorMessage(body);
  if (status === 401) return { kind: 'credentials', temporary: false, detail: msg, hint: FIX_TOKEN };
  if (status === 403) return { kind: 'permission', temporary: false, detail: msg, hint: FIX_PERMISSION };
  if (status === 426 || (status === 400 && /version/i.test(msg ?? ''))) {
    return { kind: 'invalid_query', temporary: false, detail: msg ?? 'unsupported LinkedIn-Version', hint: 'set a currently supported version (YYYYMM) as api_version with PUT /dashboard/api/sources/linkedin' };
  }
  // A 429 with Retry-After is a short throttle; without one it is the daily limit.
  if (status === 429 && !headers.has('retry-after')) {
    const d = new Date(now);
    return { kind: 'quota', temporary: false, detail: msg, quota: { name: 'LinkedIn daily API limit (application or member)', resetsAt: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)) } };
  }
  return defaultVerdict(status, body, headers, now);
}

interface LiCall {
  ctx: ConnectorContext;
  token: string;
  version: string;
}

function liGet<T>(call: LiCall, path: string, query?: Record<string, string | number | undefined>, what?: string): Promise<T> {
  const url = joinUrl(call.ctx.baseUrl, path, query);
  return getJson<T>(
    call.ctx,
    url,
    {
      headers: {
        authorization: `Bearer ${call.token}`,
        'linkedin-version': call.version,
        'x-restli-protocol-version': '2.0.0',
      },
    },
    { source: SOURCE, classify: classifyLinkedIn, what },
  );
}

interface LiPaging {
  start?: number;
  count?: number;
  total?: number;
  links?: Array<{ rel?: string; href?: string }>;
}

interface LiPost {
  id?: string;
  author?: string;
  commentary?: string;
  createdAt?: number;
  publishedAt?: number;
  lastModifiedAt?: number;
  lifecycleState?: string;
  distribution?: { feedDistribution?: string };
}

interface LiAcl {
  organization?: string;
  organizationalTarget?: string;
  role?: string;
  state?: string;
}

interface LiSocialActions {
  likesSummary?: { totalLikes?: number; aggregatedTotalLikes?: number };
  commentsSummary?: { totalFirstLevelComments?: number; aggregatedTotalComments?: number };
}

/**
 * Plain text of a post's `commentary` ("little text" format): `@[Name](urn:li:organization:1)` → `@Name`,
 * `{hashtag|\#|tag}` → `#tag`, backslash escapes removed.
 */
export function littleTextToPlain(s: string): string {
  return s
    .replace(/\{hashtag\|\\?#\|([^}]*)\}/g, (_, tag: string) => `#${tag}`)
    .replace(/@\[([^\]]*)\]\((urn:[^)]*)\)/g, (_, name: string) => `@${name}`)
    .replace(/\\([|{}@[\]()<>#\\*_~])/g, '$1');
}

function orgUrn(v: string): string | undefined {
  const s = v.trim();
  if (/^urn:li:organization:\d+$/.test(s)) return s;
  if (/^\d+$/.test(s)) return `urn:li:organization:${s}`;
  return undefined;
}

async function discoverOrganizations(call: LiCall): Promise<string[]> {
  const out: string[] = [];
  for (let start = 0, i = 0; i < 5 && out.length < MAX_ORGS; i++) {
    const body = await liGet<{ elements?: LiAcl[]; paging?: LiPaging }>(
      call,
      '/rest/organizationAcls',
      { q: 'roleAssignee', role: 'ADMINISTRATOR', state: 'APPROVED', count: 100, start },
      'organization list',
    );
    const els = body.elements ?? [];
    for (const el of els) {
      const urn = orgUrn(el.organization ?? el.organizationalTarget ?? '');
      if (urn && !out.includes(urn)) out.push(urn);
    }
    start += els.length;
    if (!els.length || (body.paging?.total !== undefined ? start >= body.paging.total : els.length < 100)) break;
  }
  return out.slice(0, MAX_ORGS);
}

/** Best effort: a SourceError (not an abort) leaves the fallback. */
async function bestEffort<T, F>(ctx: ConnectorContext, fn: () => Promise<T>, fallback: F, onError?: (err: SourceError) => void): Promise<T | F> {
  try {
    return await fn();
  } catch (err) {
    if (ctx.signal.aborted || !(err instanceof SourceError)) throw err;
    onError?.(err);
    return fallback;
  }
}

async function organizationName(call: LiCall, urn: string): Promise<string | undefined> {
  const id = urn.split(':').pop() ?? '';
  const body = await bestEffort(
    call.ctx,
    () => liGet<{ localizedName?: string }>(call, `/rest/organizations/${encodeURIComponent(id)}`, undefined, 'organization lookup'),
    {} as { localizedName?: string },
  );
  return typeof body.localizedName === 'string' && body.localizedName ? body.localizedName : undefined;
}

function mapPost(post: LiPost, authorName: string | undefined): SourceItem | undefined {
  if (!post || typeof post.id !== 'string') return undefined;
  if (post.lifecycleState && !post.lifecycleState.startsWith('PUBLISHED')) return undefined;
  if (post.distribution?.feedDistribution === 'NONE') return undefined; // dark (sponsored-only) post
  const created = toIso(post.publishedAt ?? post.createdAt);
  if (!created) return undefined;
  return {
    source: SOURCE,
    id: post.id,
    url: `https://www.linkedin.com/feed/update/${post.id}`,
    author: authorName ?? post.author ?? null,
    text: littleTextToPlain(post.commentary ?? ''),
    created_at: created,
    metrics: {},
  };
}

async function organizationPosts(call: LiCall, urn: string, want: number): Promise<SourceItem[]> {
  const { ctx } = call;
  const name = await organizationName(call, urn);
  const since = Date.parse(ctx.plan.since);
  const out: SourceItem[] = [];
  let start = 0;
  for (let i = 0; i < MAX_PAGES_PER_ORG && out.length < want; i++) {
    const body = await liGet<{ elements?: LiPost[]; paging?: LiPaging }>(
      call,
      '/rest/posts',
      { author: urn, q: 'author', count: PAGE_SIZE, start, sortBy: 'LAST_MODIFIED' },
      `posts of ${urn}`,
    );
    const els = body.elements ?? [];
    let stale = 0;
    for (const post of els) {
      const modified = post?.lastModifiedAt ?? post?.publishedAt ?? post?.createdAt;
      if (!Number.isNaN(since) && typeof modified === 'number' && modified < since) stale++;
      const item = mapPost(post, name);
      if (!item) continue;
      if (!inPlanWindow(ctx.plan, item.created_at)) continue;
      if (!matchesPlanText(ctx.plan, item.text)) continue;
      out.push(item);
      if (out.length >= want) break;
    }
    start += els.length;
    if (!els.length || stale === els.length) break;
    const total = body.paging?.total;
    if (total !== undefined ? start >= total : els.length < PAGE_SIZE) break;
  }
  return out;
}

/**
 * Likes and comments per post from socialActions, best effort: a failed call leaves `{}`, and once a
 * call fails with a retryable error (rate limit, outage) the remaining posts are not asked for.
 */
async function addMetrics(call: LiCall, items: SourceItem[]): Promise<void> {
  let next = 0;
  let stop = false;
  const worker = async () => {
    while (next < items.length && !stop) {
      const item = items[next++];
      const sa = await bestEffort(
        call.ctx,
        () => liGet<LiSocialActions>(call, `/rest/socialActions/${encodeURIComponent(item.id)}`, undefined, 'social actions'),
        undefined,
        (err) => {
          if (err.retryable) stop = true;
        },
      );
      if (!sa) continue;
      item.metrics = metricsOf({
        likes: sa.likesSummary?.aggregatedTotalLikes ?? sa.likesSummary?.totalLikes,
        comments: sa.commentsSummary?.aggregatedTotalComments ?? sa.commentsSummary?.totalFirstLevelComments,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(METRICS_CONCURRENCY, items.length) }, worker));
}

export const linkedinConnector: Connector = {
  name: 'linkedin',
  defaultBaseUrl: 'https://api.linkedin.com',
  credentialFields: [
    {
      name: 'access_token',
      required: true,
      description:
        'LinkedIn member access token from 3-legged OAuth with the r_organization_social and rw_organization_admin scopes (Community Management API), of a member who is ADMINISTRATOR of the organizations.',
    },
    {
      name: 'organization_urns',
      required: false,
      description:
        'Optional comma-separated organization URNs or ids (urn:li:organization:123). When empty, the organizations the member administers are read (GET /rest/organizationAcls).',
    },
    {
      name: 'api_version',
      required: false,
      description: 'Optional LinkedIn-Version header (YYYYMM). Default: the month before last, which LinkedIn still supports.',
    },
  ],
  accessNotes:
    'Reads posts of the LinkedIn organizations (Company Pages) the tenant administers, with the Community Management API and the tenant\'s own token; LinkedIn offers no public post search. ' +
    'Create an app in the LinkedIn Developer Portal, verify it with the Company Page, request the Community Management API product, and obtain a member token with 3-legged OAuth and the scopes r_organization_social and rw_organization_admin (the member must be an ADMINISTRATOR of the Page). Tokens last 60 days. ' +
    'Store it with PUT /dashboard/api/sources/linkedin {"access_token":"…","organization_urns":"optional,comma,list"}. ' +
    'The API cannot filter by text or date: the time window, keywords, phrases, hashtags, mentions and exclusions are applied here on the post commentary (all keywords, or any hashtag/mention, none of the exclusions). ' +
    'Metrics (likes, comments) come from socialActions, one call per returned post; they are left empty when that call fails. Rate limits (429) are retried briefly, then reported.',

  async search(ctx: ConnectorContext): Promise<SourceItem[]> {
    const token = requireCredential(ctx, SOURCE, 'access_token');
    if (ctx.limit <= 0) return [];
    const version = optionalCredential(ctx, 'api_version') ?? defaultLinkedInVersion();
    if (!/^\d{6}(\.\d{1,2})?$/.test(version)) {
      throw new SourceError('linkedin api_version must look like YYYYMM (e.g. 202510); fix it with PUT /dashboard/api/sources/linkedin');
    }
    const call: LiCall = { ctx, token, version };

    const configured = optionalCredential(ctx, 'organization_urns');
    let orgs: string[];
    if (configured) {
      const parts = configured.split(/[\s,]+/).filter(Boolean);
      const bad = parts.filter((p) => !orgUrn(p));
      if (bad.length) {
        throw new SourceError(
          `linkedin organization_urns must be organization URNs like urn:li:organization:123 (got ${bad.slice(0, 3).join(', ')}); fix them with PUT /dashboard/api/sources/linkedin`,
        );
      }
      orgs = [...new Set(parts.map((p) => orgUrn(p)!))];
    } else {
      orgs = await discoverOrganizations(call);
      if (!orgs.length) {
        throw new SourceError(
          'linkedin: the token\'s member administers no organization (organizationAcls is empty); use the token of a Page ADMINISTRATOR, or set organization_urns with PUT /dashboard/api/sources/linkedin',
        );
      }
    }

    const all: SourceItem[] = [];
    for (const urn of orgs) all.push(...(await organizationPosts(call, urn, ctx.limit)));
    const items = finalizeItems(ctx.plan, all.sort(byNewest), ctx.limit);
    await addMetrics(call, items);
    return items;
  },
};
