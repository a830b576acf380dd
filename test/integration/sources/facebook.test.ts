import { afterEach, describe, expect, it } from 'vitest';
import { facebookConnector } from '../../../functions/core/sources/facebook.js';
import type { QueryPlan } from '../../../functions/core/sources/types.js';
import { catchSourceError, fakeContext } from '../../fixtures/fake-sources/server.js';
import { FB_NEWEST, FB_USER_TOKEN, startFakeFacebook, type GraphFakeApi } from '../../fixtures/fake-sources/facebook.js';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

function plan(over: Partial<QueryPlan> = {}): QueryPlan {
  return {
    keywords: ['acme', 'shoes'],
    phrases: [],
    hashtags: [],
    mentions: [],
    exclude: [],
    since: iso(FB_NEWEST - 30 * 24 * HOUR),
    until: iso(FB_NEWEST + HOUR),
    ...over,
  };
}

const makeCtx = (api: GraphFakeApi, over: { plan?: Partial<QueryPlan>; limit?: number; credentials?: Record<string, string> | undefined } = {}) =>
  fakeContext(api, plan(over.plan), { access_token: FB_USER_TOKEN }, over);

const catchErr = catchSourceError;

const postRequests = (api: GraphFakeApi, pageId: string) => api.requests.filter((r) => r.path.startsWith(`/v26.0/${pageId}/posts`));

let api: GraphFakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('facebook connector', () => {
  it('declares its credentials and access notes', () => {
    expect(facebookConnector.name).toBe('facebook');
    expect(facebookConnector.defaultBaseUrl).toBe('https://graph.facebook.com');
    expect(facebookConnector.credentialFields.map((f) => [f.name, f.required])).toEqual([
      ['access_token', true],
      ['app_secret', false],
      ['page_ids', false],
    ]);
    expect(facebookConnector.accessNotes).toMatch(/pages_read_engagement/);
    expect(facebookConnector.accessNotes).toMatch(/PUT \/dashboard\/api\/sources\/facebook/);
  });

  it('reads every managed Page with its Page token across result pages and maps posts', async () => {
    api = await startFakeFacebook();
    const { ctx } = makeCtx(api);
    const items = await facebookConnector.search(ctx);

    expect(items.map((i) => i.id)).toEqual(['1001_5000', '1002_6000', '1001_5002', '1001_5004', '1002_6002', '1001_5006']);
    expect(items[0]).toEqual({
      source: 'facebook',
      id: '1001_5000',
      url: 'https://www.facebook.com/1001/posts/5000',
      author: 'Acme Store',
      text: 'New Acme shoes collection is live #acme',
      created_at: iso(FB_NEWEST),
      metrics: { reactions: 12, comments: 3, shares: 2 },
    });
    // No `shares` field on the post → 0.
    expect(items.find((i) => i.id === '1002_6002')?.metrics).toEqual({ reactions: 9, comments: 2, shares: 0 });
    expect(items.find((i) => i.id === '1002_6000')?.author).toBe('Acme Outlet');

    expect(api.requests[0].path).toMatch(/^\/v26\.0\/me\/accounts\?/);
    const p1001 = postRequests(api, '1001');
    expect(p1001).toHaveLength(3); // 7 posts, 3 per page
    for (const r of p1001) {
      const u = new URL(r.path, 'http://x');
      expect(u.searchParams.get('access_token')).toBe('fb-page-token-1001');
      expect(u.searchParams.get('fields')).toContain('reactions.summary(true)');
      expect(u.searchParams.get('since')).toBe(String(Math.floor(Date.parse(ctx.plan.since) / 1000)));
      expect(u.searchParams.get('until')).toBe(String(Math.floor(Date.parse(ctx.plan.until) / 1000)));
      expect(u.searchParams.get('limit')).toBe('100');
    }
    expect(new URL(p1001[0].path, 'http://x').searchParams.get('after')).toBeNull();
    expect(new URL(p1001[1].path, 'http://x').searchParams.get('after')).toBeTruthy();
    expect(postRequests(api, '1002')[0].path).toContain('access_token=fb-page-token-1002');
  });

  it('filters keywords, hashtags and exclusions client-side', async () => {
    api = await startFakeFacebook();
    const excl = await facebookConnector.search(makeCtx(api, { plan: { exclude: ['sale'] } }).ctx);
    expect(excl.map((i) => i.id)).not.toContain('1001_5002');
    expect(excl).toHaveLength(5);

    const tag = await facebookConnector.search(makeCtx(api, { plan: { keywords: ['nothing-matches'], hashtags: ['acme'] } }).ctx);
    expect(tag.map((i) => i.id)).toEqual(['1001_5000']);

    const all = await facebookConnector.search(makeCtx(api, { plan: { keywords: [] } }).ctx);
    expect(all).toHaveLength(10); // no terms: every post, including the photo without a message
    expect(all.find((i) => i.id === '1001_5003')?.text).toBe('');
  });

  it('respects the limit and stops paging early', async () => {
    api = await startFakeFacebook();
    const items = await facebookConnector.search(makeCtx(api, { limit: 2 }).ctx);
    expect(items.map((i) => i.id)).toEqual(['1001_5000', '1002_6000']);
    expect(postRequests(api, '1001')).toHaveLength(1);
  });

  it('applies the time window (API since/until and client-side)', async () => {
    api = await startFakeFacebook();
    const { ctx } = makeCtx(api, { plan: { since: iso(FB_NEWEST - 2.5 * HOUR), until: iso(FB_NEWEST - 0.75 * HOUR), keywords: [] } });
    const items = await facebookConnector.search(ctx);
    expect(items.map((i) => i.id)).toEqual(['1001_5001', '1001_5002', '1002_6001']);
    for (const it of items) {
      expect(Date.parse(it.created_at)).toBeGreaterThanOrEqual(Date.parse(ctx.plan.since));
      expect(Date.parse(it.created_at)).toBeLessThanOrEqual(Date.parse(ctx.plan.until));
    }
  });

  it('reads only page_ids, using the Page token from /me/accounts', async () => {
    api = await startFakeFacebook();
    const items = await facebookConnector.search(makeCtx(api, { credentials: { access_token: FB_USER_TOKEN, page_ids: '1002' } }).ctx);
    expect(items.map((i) => i.id)).toEqual(['1002_6000', '1002_6002']);
    expect(postRequests(api, '1001')).toHaveLength(0);
    expect(postRequests(api, '1002')[0].path).toContain('access_token=fb-page-token-1002');
  });

  it('works with a Page token and page_ids (me/accounts is not available to Page tokens)', async () => {
    api = await startFakeFacebook();
    const items = await facebookConnector.search(makeCtx(api, { credentials: { access_token: 'fb-page-token-1001', page_ids: '1001' } }).ctx);
    expect(items.map((i) => i.id)).toEqual(['1001_5000', '1001_5002', '1001_5004', '1001_5006']);
    expect(items[0].author).toBe('1001');
  });

  it('retries a 429 honouring Retry-After', async () => {
    api = await startFakeFacebook({ rateLimitFirst: 1, retryAfter: '2' });
    const { ctx, sleeps } = makeCtx(api);
    const items = await facebookConnector.search(ctx);
    expect(items).toHaveLength(6);
    expect(sleeps).toEqual([2000]);
    expect(api.requests[0].path).toBe(api.requests[1].path);
  });

  it('retries Graph throttling (code 4 on a 403 without Retry-After) with a short backoff', async () => {
    api = await startFakeFacebook({ graphThrottleFirst: 2 });
    const { ctx, sleeps } = makeCtx(api);
    const items = await facebookConnector.search(ctx);
    expect(items).toHaveLength(6);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('does not wait for a long Graph throttling window: fails with retryAfterSeconds', async () => {
    api = await startFakeFacebook({
      graphThrottleFirst: 1,
      graphThrottleHeaders: {
        'x-business-use-case-usage': JSON.stringify({ '1001': [{ type: 'pages', call_count: 100, total_cputime: 30, total_time: 40, estimated_time_to_regain_access: 5 }] }),
      },
    });
    const { ctx, sleeps } = makeCtx(api);
    const err = await catchErr(facebookConnector.search(ctx));
    expect(err.message).toMatch(/facebook page list rate limited \(403\): \(#4\) Application request limit reached \(Graph API error 4\); retry after 300 s/);
    expect(err.kind).toBe('rate');
    expect(err.retryAfterSeconds).toBe(300);
    expect(err.retryable).toBe(true);
    expect(sleeps).toEqual([]);
  });

  it('reports a persistent 429 as a retryable rate-limit error', async () => {
    api = await startFakeFacebook({ rateLimitFirst: 10, retryAfter: '1' });
    const { ctx, sleeps } = makeCtx(api);
    const err = await catchErr(facebookConnector.search(ctx));
    expect(err.message).toMatch(/^facebook page list rate limited \(429\)/);
    expect(err.retryable).toBe(true);
    expect(sleeps).toEqual([1000, 1000, 1000]); // 4 attempts, Retry-After each time
  });

  it('explains how to fix a rejected token (Graph error 190 on 400 and on 401)', async () => {
    for (const authStatus of [400, 401]) {
      api = await startFakeFacebook({ authStatus });
      const err = await catchErr(facebookConnector.search(makeCtx(api, { credentials: { access_token: 'wrong' } }).ctx));
      expect(err.message).toContain(`facebook rejected the credentials (${authStatus})`);
      expect(err.message).toContain('Graph API error 190/463');
      expect(err.message).toMatch(/long-lived/);
      expect(err.message).toContain('PUT /dashboard/api/sources/facebook');
      expect(err.retryable).toBe(false);
      await api.close();
      api = undefined;
    }
  });

  it('names the missing credential and how to add it', async () => {
    api = await startFakeFacebook();
    for (const credentials of [undefined, {}, { access_token: '  ' }] as Array<Record<string, string> | undefined>) {
      const err = await catchErr(facebookConnector.search(makeCtx(api, { credentials }).ctx));
      expect(err.message).toContain('access_token');
      expect(err.message).toContain('PUT /dashboard/api/sources/facebook');
    }
    expect(api.requests).toHaveLength(0);
  });

  it('reports a platform outage as a retryable error after retries', async () => {
    api = await startFakeFacebook({ down: true });
    const { ctx, sleeps } = makeCtx(api);
    const err = await catchErr(facebookConnector.search(ctx));
    expect(err.message).toMatch(/facebook page list is unavailable \(platform down\) \(500\)/);
    expect(err.retryable).toBe(true);
    expect(err.kind).toBe('platform_down');
    expect(sleeps).toEqual([1000, 2000, 4000]);
  });

  it('says so when the token manages no Page', async () => {
    api = await startFakeFacebook({ pages: [] });
    const err = await catchErr(facebookConnector.search(makeCtx(api).ctx));
    expect(err.message).toMatch(/manages no Pages/);
    expect(err.message).toContain('PUT /dashboard/api/sources/facebook');
  });
});
