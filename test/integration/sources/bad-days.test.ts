import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { xConnector } from '../../../functions/core/sources/x.js';
import { redditConnector } from '../../../functions/core/sources/reddit.js';
import { youtubeConnector } from '../../../functions/core/sources/youtube.js';
import { tiktokConnector } from '../../../functions/core/sources/tiktok.js';
import { linkedinConnector } from '../../../functions/core/sources/linkedin.js';
import { TokenCache } from '../../../functions/core/sources/token-cache.js';
import { tableLedger, YOUTUBE_DEFAULT_DAILY_UNITS } from '../../../functions/core/sources/source-ledger.js';
import { SourceError } from '../../../functions/core/sources/types.js';
import { catchSourceError, testContext, testPlan, type FakeApi } from '../../fixtures/fake-sources/server.js';
import { startFakeX, xErrors, xRateHeaders } from '../../fixtures/fake-sources/x.js';
import { startFakeReddit, redditErrors } from '../../fixtures/fake-sources/reddit.js';
import { startFakeYoutube, youtubeErrors } from '../../fixtures/fake-sources/youtube.js';
import { startFakeTiktok, tiktokErrors } from '../../fixtures/fake-sources/tiktok.js';
import { startFakeLinkedIn } from '../../fixtures/fake-sources/linkedin.js';
import { memoryStores } from '../foundation/stores.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

/**
 * Contract tests of each connector against its fake on the platform's bad days (issue 13):
 * temporary errors retried within a bounded time, quota errors reported clearly and at once, no
 * duplicate or lost items, tokens reused. Waits go through the recording sleep: nothing sleeps.
 */

let fake: FakeApi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

let stores: EmbeddedStores;
let table: DynamoTable;
beforeAll(async () => {
  ({ stores, table } = await memoryStores());
});
afterAll(async () => {
  await stores?.close();
});

const X = { bearer_token: 'x-test-token' };
const REDDIT = { client_id: 'reddit-client', client_secret: 'reddit-secret', app_id: 'com.example.brandwatch', username: 'brand_dev' };
const YT = { api_key: 'yt-test-key' };
const TT = { client_key: 'tt-client-key', client_secret: 'tt-client-secret' };
const searches = (api: FakeApi, path: string) => api.requests.filter((r) => r.path.startsWith(path));

describe('x on bad days', () => {
  it('a monthly usage cap stops at once with a quota message (not retried as a short rate limit)', async () => {
    fake = await startFakeX({ incidents: [{ status: 429, body: xErrors.usageCapped(), headers: xRateHeaders(399, 600), times: 5 }] });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: X });
    const err = await catchSourceError(xConnector.search(ctx));
    expect(err.kind).toBe('quota');
    expect(err.message).toMatch(/^x quota exhausted: X monthly product usage cap \(429\): Usage cap exceeded: Monthly product cap; it resets with your X billing cycle/);
    expect(fake.requests).toHaveLength(1);
    expect(ctx.sleeps).toEqual([]);
  });

  it('an access level without search is a permission error, not bad credentials', async () => {
    fake = await startFakeX({ incidents: [{ status: 403, body: xErrors.clientForbidden() }] });
    const err = await catchSourceError(xConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: X })));
    expect(err.kind).toBe('permission');
    expect(err.message).toMatch(/^x refused access \(permission\) \(403\):.*Basic or higher/);
    expect(err.message).not.toMatch(/rejected the credentials/);
  });

  it('a 429 without Retry-After waits for x-rate-limit-reset; a 5xx burst is backed off, never waiting for that reset', async () => {
    fake = await startFakeX({
      count: 30,
      pageSize: 10,
      incidents: [
        { status: 429, body: xErrors.tooManyRequests(), headers: xRateHeaders(0, 9) },
        { status: 503, body: xErrors.serviceUnavailable(), headers: xRateHeaders(0, 3600), times: 2, afterRequests: 2 },
      ],
    });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: X });
    const items = await xConnector.search(ctx);
    expect(items).toHaveLength(30);
    expect(new Set(items.map((i) => i.id)).size).toBe(30);
    expect(ctx.sleeps[0]).toBeGreaterThanOrEqual(8000); // the reset, ~9 s away
    expect(ctx.sleeps[0]).toBeLessThanOrEqual(9000);
    expect(ctx.sleeps.slice(1)).toEqual([1000, 2000]); // backoff, not the hour-away reset
  });

  it('refuses a query longer than 512 characters before sending it', async () => {
    fake = await startFakeX();
    const plan = testPlan({ keywords: Array.from({ length: 70 }, (_, i) => `keyword${i}`) });
    const err = await catchSourceError(xConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: X, plan })));
    expect(err.kind).toBe('invalid_query');
    expect(err.message).toMatch(/at most 512/);
    expect(fake.requests).toHaveLength(0);
  });

  it('bounds the total time of retries by the query budget', async () => {
    fake = await startFakeX({ incidents: [{ status: 429, body: xErrors.tooManyRequests(), headers: { 'retry-after': '20' }, times: 10 }] });
    const { RetryBudget } = await import('../../../functions/core/sources/retry-policy.js');
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: X, retryBudget: new RetryBudget(45_000) });
    const err = await catchSourceError(xConnector.search(ctx));
    expect(err.kind).toBe('rate');
    expect(ctx.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(45_000);
    expect(ctx.sleeps).toEqual([20_000, 20_000]);
  });
});

describe('reddit on bad days', () => {
  it('reuses one token per tenant across queries, never across tenants', async () => {
    const r = await startFakeReddit({ count: 5 });
    fake = r;
    const cache = new TokenCache();
    const run = (tenantId: string) => redditConnector.search(testContext({ baseUrl: r.baseUrl, credentials: REDDIT, tenantId, tokenCache: cache }));
    await run('ten_a');
    await run('ten_a');
    expect(r.tokensIssued).toHaveLength(1);
    await run('ten_b');
    expect(r.tokensIssued).toHaveLength(2);
    expect(searches(r, '/search').map((q) => q.headers.authorization)).toEqual([
      'bearer reddit-access-token',
      'bearer reddit-access-token',
      'bearer reddit-access-token-2',
    ]);
  });

  it('refreshes a token that expires mid-query once, and loses or repeats no item', async () => {
    const r = await startFakeReddit({ count: 30, pageSize: 10, tokenValidForRequests: 1 });
    fake = r;
    const ctx = testContext({ baseUrl: r.baseUrl, credentials: REDDIT, tenantId: 'ten_a', tokenCache: new TokenCache(), plan: testPlan({}, 10) });
    const items = await redditConnector.search(ctx);
    expect(items.map((i) => i.id)).toEqual(r.posts.map((p) => p.id));
    expect(r.tokensIssued).toHaveLength(3); // one per page: each token dies after one request
  });

  it('waits for X-Ratelimit-Reset when X-Ratelimit-Remaining reaches 0, instead of being refused', async () => {
    const r = await startFakeReddit({ count: 30, pageSize: 10, rateLimitRemaining: 1, rateLimitResetSeconds: 20 });
    fake = r;
    const ctx = testContext({ baseUrl: r.baseUrl, credentials: REDDIT, plan: testPlan({}, 10) });
    expect(await redditConnector.search(ctx)).toHaveLength(30);
    expect(ctx.sleeps).toEqual([20_000]); // after page 2 (remaining 0), before page 3
  });

  it('retries a 429 without Retry-After for x-ratelimit-reset seconds; a 403 is a permission error', async () => {
    const r = await startFakeReddit({ count: 3, incidents: [{ status: 429, body: redditErrors.tooManyRequests(), headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '6' }, when: (q) => q.path.startsWith('/search') }] });
    fake = r;
    const ctx = testContext({ baseUrl: r.baseUrl, credentials: REDDIT });
    expect(await redditConnector.search(ctx)).toHaveLength(3);
    expect(ctx.sleeps).toEqual([6000]);
    r.state.incidents.push({ status: 403, body: redditErrors.forbidden(), when: (q) => q.path.startsWith('/search') });
    const err = await catchSourceError(redditConnector.search(testContext({ baseUrl: r.baseUrl, credentials: REDDIT })));
    expect(err.kind).toBe('permission');
  });
});

describe('youtube on bad days', () => {
  it('counts units per tenant (search.list 100, videos.list 1) and refuses early when a query would exceed what is left', async () => {
    const y = await startFakeYoutube({ count: 30, pageSize: 12 });
    fake = y;
    const ledger = tableLedger(table, 'ten_yt1');
    const ctx = testContext({ baseUrl: y.baseUrl, credentials: YT, ledger, limit: 30, plan: testPlan({}, 10) });
    expect(await youtubeConnector.search(ctx)).toHaveLength(30);
    const pages = searches(y, '/youtube/v3/search').length;
    const used = (await ledger.units('youtube', YOUTUBE_DEFAULT_DAILY_UNITS, new Date())).used;
    expect(used).toBe(pages * 100 + 1);

    await ledger.addUnits('youtube', YOUTUBE_DEFAULT_DAILY_UNITS - used - 50, new Date()); // 50 left
    const before = y.requests.length;
    const err = await catchSourceError(youtubeConnector.search(testContext({ baseUrl: y.baseUrl, credentials: YT, ledger, limit: 30 })));
    expect(err.kind).toBe('quota');
    expect(err.message).toMatch(/may spend up to 101 units and 50 of 10000 are left today; it resets at/);
    expect(y.requests.length).toBe(before); // nothing sent
  });

  it('quotaExceeded mid-query stops at once and marks the day spent; rateLimitExceeded is retried', async () => {
    const y = await startFakeYoutube({
      count: 30,
      pageSize: 10,
      incidents: [
        { status: 403, body: youtubeErrors.rateLimitExceeded(), when: (q) => q.path.startsWith('/youtube/v3/search') },
        { status: 403, body: youtubeErrors.quotaExceeded(), afterRequests: 2, times: 5 },
      ],
    });
    fake = y;
    const ledger = tableLedger(table, 'ten_yt2');
    const ctx = testContext({ baseUrl: y.baseUrl, credentials: YT, ledger, limit: 30, plan: testPlan({}, 10) });
    const err = await catchSourceError(youtubeConnector.search(ctx));
    expect(ctx.sleeps).toEqual([1000]); // the rate limit, once
    expect(err.kind).toBe('quota');
    expect(y.requests).toHaveLength(3);
    expect((await ledger.units('youtube', YOUTUBE_DEFAULT_DAILY_UNITS, new Date())).remaining).toBe(0);
  });

  it('accessNotConfigured is a permission error that says to enable the API', async () => {
    fake = await startFakeYoutube({ incidents: [{ status: 403, body: youtubeErrors.accessNotConfigured() }] });
    const err = await catchSourceError(youtubeConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: YT })));
    expect(err.kind).toBe('permission');
    expect(err.message).toMatch(/enable "YouTube Data API v3"/);
  });

  it('overlapping and empty pages: no duplicate and no lost video', async () => {
    const y = await startFakeYoutube({ count: 30, pageSize: 10, duplicateAcrossPages: true, emptyPageAt: 1 });
    fake = y;
    const items = await youtubeConnector.search(testContext({ baseUrl: y.baseUrl, credentials: YT, limit: 100, plan: testPlan({}, 10) }));
    expect(items.map((i) => i.id).sort()).toEqual(y.videos.map((v) => v.id).sort());
  });
});

describe('tiktok on bad days', () => {
  it('the daily quota stops at once and says it resets at 00:00 UTC', async () => {
    fake = await startFakeTiktok({ incidents: [{ status: 429, body: tiktokErrors.dailyQuota(), when: (q) => q.path.startsWith('/v2/research'), times: 5 }] });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: TT });
    const err = await catchSourceError(tiktokConnector.search(ctx));
    expect(err.kind).toBe('quota');
    expect(err.message).toMatch(/TikTok Research API daily request quota \(429\).*it resets at \d{4}-\d\d-\d\dT00:00:00\.000Z/);
    expect(ctx.sleeps).toEqual([]);
  });

  it('refreshes an expired token mid-query once and keeps every video; reuses the token next time', async () => {
    const t = await startFakeTiktok({ count: 25, pageSize: 10, tokenValidForRequests: 2 });
    fake = t;
    const cache = new TokenCache();
    const ctx = testContext({ baseUrl: t.baseUrl, credentials: TT, tenantId: 'ten_tt', tokenCache: cache, plan: testPlan({}, 5) });
    const items = await tiktokConnector.search(ctx);
    expect(new Set(items.map((i) => i.id))).toEqual(new Set(t.videos.map((v) => v.id)));
    expect(t.tokensIssued).toHaveLength(2);
    await tiktokConnector.search(testContext({ baseUrl: t.baseUrl, credentials: TT, tenantId: 'ten_tt', tokenCache: cache, limit: 5 }));
    expect(t.tokensIssued).toHaveLength(2);
  });

  it('internal_error bursts are retried with backoff', async () => {
    fake = await startFakeTiktok({ count: 3, incidents: [{ status: 500, body: tiktokErrors.internal(), times: 2, when: (q) => q.path.startsWith('/v2/research') }] });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: TT });
    expect(await tiktokConnector.search(ctx)).toHaveLength(3);
    expect(ctx.sleeps).toEqual([1000, 2000]);
  });
});

describe('linkedin on bad days', () => {
  it('a 429 without Retry-After is the daily limit: stops at once, resets at midnight UTC', async () => {
    fake = await startFakeLinkedIn({ rateLimitFirst: 5, retryAfter: null });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: { access_token: 'li-test-token' } });
    const err = await catchSourceError(linkedinConnector.search(ctx));
    expect(err).toBeInstanceOf(SourceError);
    expect(err.kind).toBe('quota');
    expect(err.message).toMatch(/LinkedIn daily API limit.*T00:00:00\.000Z/);
    expect(ctx.sleeps).toEqual([]);
  });
});
