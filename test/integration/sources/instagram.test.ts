import { afterEach, describe, expect, it } from 'vitest';
import { hashtagsForPlan, instagramConnector, MAX_HASHTAGS_PER_QUERY, toHashtag } from '../../../functions/core/sources/instagram.js';
import type { QueryPlan } from '../../../functions/core/sources/types.js';
import { catchSourceError, fakeContext } from '../../fixtures/fake-sources/server.js';
import type { GraphFakeApi } from '../../fixtures/fake-sources/facebook.js';
import { IG_HASHTAG_IDS, IG_NEWEST, IG_TOKEN, IG_USER_ID, igPermalink, startFakeInstagram } from '../../fixtures/fake-sources/instagram.js';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

function plan(over: Partial<QueryPlan> = {}): QueryPlan {
  return {
    keywords: [],
    phrases: [],
    hashtags: ['acme'],
    mentions: [],
    exclude: [],
    since: iso(IG_NEWEST - 24 * HOUR),
    until: iso(IG_NEWEST + HOUR),
    ...over,
  };
}

const makeCtx = (api: GraphFakeApi, over: { plan?: Partial<QueryPlan>; limit?: number; credentials?: Record<string, string> | undefined } = {}) =>
  fakeContext(api, plan(over.plan), { access_token: IG_TOKEN, ig_user_id: IG_USER_ID }, over);

const catchErr = catchSourceError;

const mediaRequests = (api: GraphFakeApi, tag: string) => api.requests.filter((r) => r.path.startsWith(`/v26.0/${IG_HASHTAG_IDS[tag]}/recent_media`));
const searchRequests = (api: GraphFakeApi) => api.requests.filter((r) => r.path.startsWith('/v26.0/ig_hashtag_search'));

let api: GraphFakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('instagram connector', () => {
  it('declares its credentials and the hashtag budget in its access notes', () => {
    expect(instagramConnector.name).toBe('instagram');
    expect(instagramConnector.defaultBaseUrl).toBe('https://graph.facebook.com');
    expect(instagramConnector.credentialFields.map((f) => [f.name, f.required])).toEqual([
      ['access_token', true],
      ['ig_user_id', true],
      ['app_secret', false],
    ]);
    expect(instagramConnector.accessNotes).toMatch(/30 unique hashtags/);
    expect(instagramConnector.accessNotes).toMatch(/Instagram Public Content Access/);
  });

  it('derives hashtags from keywords when the plan has none', () => {
    expect(toHashtag('Acme Shoes')).toBe('acmeshoes');
    expect(toHashtag('#Café-Olé!')).toBe('caféolé');
    expect(hashtagsForPlan(plan({ hashtags: [], keywords: ['Acme', 'acme shoes'], phrases: ['ACME'] }))).toEqual(['acme', 'acmeshoes']);
    expect(hashtagsForPlan(plan({ hashtags: ['#Acme'], keywords: ['other'] }))).toEqual(['acme']);
    const many = Array.from({ length: 9 }, (_, i) => `tag${i}`);
    expect(hashtagsForPlan(plan({ hashtags: many }))).toHaveLength(MAX_HASHTAGS_PER_QUERY);
  });

  it('searches the hashtag, pages through recent_media and maps media', async () => {
    api = await startFakeInstagram();
    const items = await instagramConnector.search(makeCtx(api).ctx);

    expect(items.map((i) => i.id)).toEqual([
      '18000000000000001',
      '18000000000000002',
      '18000000000000003',
      '18000000000000004',
      '18000000000000005',
      '18000000000000006',
      '18000000000000007',
    ]);
    expect(items[0]).toEqual({
      source: 'instagram',
      id: '18000000000000001',
      url: igPermalink('18000000000000001'),
      author: null,
      text: 'Morning run in my new shoes #acme',
      created_at: iso(IG_NEWEST),
      metrics: { likes: 41, comments: 3 },
    });
    expect(items[3].metrics).toEqual({ comments: 2 }); // likes hidden by the owner
    expect(items[4].text).toBe(''); // no caption

    const search = new URL(searchRequests(api)[0].path, 'http://x');
    expect(search.searchParams.get('user_id')).toBe(IG_USER_ID);
    expect(search.searchParams.get('q')).toBe('acme');
    expect(search.searchParams.get('access_token')).toBe(IG_TOKEN);

    const pages = mediaRequests(api, 'acme').map((r) => new URL(r.path, 'http://x'));
    expect(pages).toHaveLength(3); // 7 media, 3 per page
    expect(pages[0].searchParams.get('user_id')).toBe(IG_USER_ID);
    expect(pages[0].searchParams.get('limit')).toBe('50');
    expect(pages[0].searchParams.get('fields')).toBe('id,caption,media_type,permalink,timestamp,like_count,comments_count');
    expect(pages[0].searchParams.get('after')).toBeNull();
    expect(pages[1].searchParams.get('after')).toBeTruthy();
    expect(pages[2].searchParams.get('after')).not.toBe(pages[1].searchParams.get('after'));
  });

  it('searches hashtags derived from keywords, de-duplicating media across hashtags', async () => {
    api = await startFakeInstagram();
    const items = await instagramConnector.search(makeCtx(api, { plan: { hashtags: [], keywords: ['Acme', 'Acme Shoes'] } }).ctx);
    expect(searchRequests(api).map((r) => new URL(r.path, 'http://x').searchParams.get('q'))).toEqual(['acme', 'acmeshoes']);
    expect(items).toHaveLength(9);
    expect(new Set(items.map((i) => i.id)).size).toBe(9);
    // newest first across hashtags
    expect(items.map((i) => Date.parse(i.created_at))).toEqual([...items.map((i) => Date.parse(i.created_at))].sort((a, b) => b - a));
  });

  it('skips a hashtag Instagram does not know', async () => {
    api = await startFakeInstagram();
    const items = await instagramConnector.search(makeCtx(api, { plan: { hashtags: ['nosuchtag', 'acmeshoes'] } }).ctx);
    expect(items.map((i) => i.id)).toEqual(['18000000000000011', '18000000000000002', '18000000000000012']);
    expect(api.requests.filter((r) => r.path.includes('/recent_media'))).toHaveLength(1);
  });

  it('respects the limit and stops paging once it has enough', async () => {
    api = await startFakeInstagram({ order: 'newest' });
    const items = await instagramConnector.search(makeCtx(api, { limit: 4 }).ctx);
    expect(items.map((i) => i.id)).toEqual(['18000000000000001', '18000000000000002', '18000000000000003', '18000000000000004']);
    expect(mediaRequests(api, 'acme')).toHaveLength(2);
  });

  it('applies the time window without assuming an order: reads to the end of the list', async () => {
    api = await startFakeInstagram(); // shuffled: an old page does not mean the rest is older
    const items = await instagramConnector.search(
      makeCtx(api, { plan: { since: iso(IG_NEWEST - 1.5 * HOUR), until: iso(IG_NEWEST - 0.5 * HOUR) } }).ctx,
    );
    expect(items.map((i) => i.id)).toEqual(['18000000000000002']);
    expect(mediaRequests(api, 'acme')).toHaveLength(3); // 7 media, 3 per page
  });

  it('applies exclusions client-side', async () => {
    api = await startFakeInstagram();
    const items = await instagramConnector.search(makeCtx(api, { plan: { exclude: ['giveaway'] } }).ctx);
    expect(items.map((i) => i.id)).not.toContain('18000000000000003');
    expect(items).toHaveLength(6);
  });

  it('needs a hashtag or keyword', async () => {
    api = await startFakeInstagram();
    const err = await catchErr(instagramConnector.search(makeCtx(api, { plan: { hashtags: [], keywords: [], phrases: [] } }).ctx));
    expect(err.message).toMatch(/only search by hashtag/);
    expect(api.requests).toHaveLength(0);
  });

  it('retries a 429 honouring Retry-After', async () => {
    api = await startFakeInstagram({ rateLimitFirst: 2, retryAfter: '3' });
    const { ctx, sleeps } = makeCtx(api);
    const items = await instagramConnector.search(ctx);
    expect(items).toHaveLength(7);
    expect(sleeps).toEqual([3000, 3000]);
  });

  it('retries Graph throttling (code 4 on a 400 without Retry-After)', async () => {
    api = await startFakeInstagram({ graphThrottleFirst: 1, graphThrottleStatus: 400 });
    const { ctx, sleeps } = makeCtx(api);
    const items = await instagramConnector.search(ctx);
    expect(items).toHaveLength(7);
    expect(sleeps).toEqual([1000]);
  });

  it('explains how to fix a rejected token', async () => {
    api = await startFakeInstagram();
    const err = await catchErr(instagramConnector.search(makeCtx(api, { credentials: { access_token: 'expired', ig_user_id: IG_USER_ID } }).ctx));
    expect(err.message).toContain('instagram rejected the credentials (400)');
    expect(err.message).toContain('Graph API error 190');
    expect(err.message).toMatch(/instagram_basic/);
    expect(err.message).toContain('PUT /dashboard/api/sources/instagram');
    expect(err.retryable).toBe(false);
  });

  it('reports a wrong ig_user_id with the platform message', async () => {
    api = await startFakeInstagram();
    const err = await catchErr(instagramConnector.search(makeCtx(api, { credentials: { access_token: IG_TOKEN, ig_user_id: '42' } }).ctx));
    expect(err.message).toMatch(/instagram hashtag search #acme rejected the query \(invalid query\) \(400\): \(#100\) Invalid user id \(Graph API error 100\)/);
  });

  it('names the missing credentials and how to add them', async () => {
    api = await startFakeInstagram();
    for (const credentials of [undefined, { access_token: IG_TOKEN }, { ig_user_id: IG_USER_ID }] as Array<Record<string, string> | undefined>) {
      const err = await catchErr(instagramConnector.search(makeCtx(api, { credentials }).ctx));
      expect(err.message).toContain('access_token, ig_user_id');
      expect(err.message).toContain('PUT /dashboard/api/sources/instagram');
    }
    expect(api.requests).toHaveLength(0);
  });

  it('reports a platform outage as a retryable error after retries', async () => {
    api = await startFakeInstagram({ down: true });
    const { ctx, sleeps } = makeCtx(api);
    const err = await catchErr(instagramConnector.search(ctx));
    expect(err.message).toMatch(/instagram hashtag search #acme is unavailable \(platform down\) \(500\)/);
    expect(err.retryable).toBe(true);
    expect(sleeps).toEqual([1000, 2000, 4000]);
  });
});
