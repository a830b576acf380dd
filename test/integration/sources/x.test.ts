import { afterEach, describe, expect, it } from 'vitest';
import { buildXQuery, xConnector } from '../../../functions/core/sources/x.js';
import { SourceError } from '../../../functions/core/sources/types.js';
import { startFakeX, type FakeX } from '../../fixtures/fake-sources/x.js';
import { testContext, testPlan } from '../../fixtures/fake-sources/server.js';

let fake: FakeX | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const creds = (token = 'x-test-token') => ({ bearer_token: token });

describe('x connector (fake X API v2)', () => {
  it('pages with next_token until the results end, mapping posts to items', async () => {
    fake = await startFakeX({ count: 25, pageSize: 10 });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds(), limit: 100, plan: testPlan({ language: 'en' }) });

    const items = await xConnector.search(ctx);

    expect(items).toHaveLength(25);
    expect(fake.requests).toHaveLength(3);
    const [first, second] = fake.requests.map((r) => new URL(r.path, fake!.baseUrl).searchParams);
    expect(first.get('next_token')).toBeNull();
    expect(second.get('next_token')).toBe('nt10');
    expect(first.get('query')).toBe('acme lang:en -is:retweet');
    expect(first.get('tweet.fields')).toBe('created_at,public_metrics,author_id,lang');
    expect(first.get('expansions')).toBe('author_id');
    expect(first.get('user.fields')).toBe('username');
    expect(first.get('start_time')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(fake.requests[0].headers.authorization).toBe('Bearer x-test-token');

    const t = fake.tweets[0];
    expect(items[0]).toEqual({
      source: 'x',
      id: t.id,
      url: `https://x.com/${t.username}/status/${t.id}`,
      author: t.username,
      text: t.text,
      created_at: t.created_at,
      metrics: { likes: 100, comments: 0, shares: 0, quotes: 0, views: 1000, bookmarks: 1 },
    });
    expect(new Set(items.map((i) => i.id)).size).toBe(25);
  });

  it('respects the limit and asks for no more than needed (max_results 10–100)', async () => {
    fake = await startFakeX({ count: 25, pageSize: 10 });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds(), limit: 15 });

    const items = await xConnector.search(ctx);

    expect(items).toHaveLength(15);
    expect(fake.requests).toHaveLength(2);
    const max = fake.requests.map((r) => new URL(r.path, fake!.baseUrl).searchParams.get('max_results'));
    expect(max).toEqual(['15', '10']);
  });

  it('filters by plan.since/until and clamps since to the 7-day recent-search window', async () => {
    fake = await startFakeX({ count: 25, stepMs: 3_600_000 });
    const now = Date.now();
    const narrow = testPlan({ since: new Date(fake.tweets[10].created_at).toISOString(), until: new Date(now).toISOString() });
    const items = await xConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds(), plan: narrow }));
    expect(items.map((i) => i.id)).toEqual(fake.tweets.slice(0, 11).map((t) => t.id));

    const old = testPlan({}, 30);
    await xConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds(), plan: old }));
    const start = Date.parse(new URL(fake.requests.at(-1)!.path, fake.baseUrl).searchParams.get('start_time')!);
    expect(now - start).toBeLessThanOrEqual(7 * 86_400_000);
    expect(now - start).toBeGreaterThan(6.9 * 86_400_000);
  });

  it('retries 429 honouring Retry-After (via ctx.sleep)', async () => {
    fake = await startFakeX({ rateLimitFirst: 2, retryAfter: '3', count: 12 });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds() });

    const items = await xConnector.search(ctx);

    expect(items).toHaveLength(12);
    expect(ctx.sleeps).toEqual([3000, 3000]);
    expect(fake.requests).toHaveLength(3);
  });

  it('uses x-rate-limit-reset (epoch seconds) when there is no Retry-After', async () => {
    const reset = Math.floor(Date.now() / 1000) + 5;
    fake = await startFakeX({ rateLimitFirst: 1, retryAfter: null, rateLimitHeaders: { 'x-rate-limit-reset': String(reset) }, count: 3 });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds() });

    await xConnector.search(ctx);

    expect(ctx.sleeps).toHaveLength(1);
    expect(ctx.sleeps[0]).toBeGreaterThan(2000);
    expect(ctx.sleeps[0]).toBeLessThanOrEqual(6000);
  });

  it('gives up after 4 attempts with a rate-limited SourceError carrying retryAfter', async () => {
    fake = await startFakeX({ rateLimitFirst: 10, retryAfter: '7' });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds() });

    const err = await xConnector.search(ctx).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).message).toMatch(/^x rate limited \(429\)/);
    expect((err as SourceError).retryAfterSeconds).toBe(7);
    expect(fake.requests).toHaveLength(4);
  });

  it('does not wait for a Retry-After beyond 30 s', async () => {
    fake = await startFakeX({ rateLimitFirst: 10, retryAfter: '900' });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds() });

    const err = (await xConnector.search(ctx).catch((e: unknown) => e)) as SourceError;

    expect(err.retryAfterSeconds).toBe(900);
    expect(ctx.sleeps).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('401 → SourceError saying how to update the credentials', async () => {
    fake = await startFakeX();
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds('wrong') });

    const err = (await xConnector.search(ctx).catch((e: unknown) => e)) as SourceError;

    expect(err).toBeInstanceOf(SourceError);
    expect(err.message).toBe('x rejected the credentials (401): Unauthorized; update them with PUT /dashboard/api/sources/x');
  });

  it('missing bearer_token → SourceError naming the field and the endpoint, no request sent', async () => {
    fake = await startFakeX();
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: undefined });

    const err = (await xConnector.search(ctx).catch((e: unknown) => e)) as SourceError;

    expect(err.message).toContain('bearer_token');
    expect(err.message).toContain('PUT /dashboard/api/sources/x');
    expect(fake.requests).toHaveLength(0);
  });

  it('server down → retried, then an API error (500)', async () => {
    fake = await startFakeX({ down: true });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds() });

    const err = (await xConnector.search(ctx).catch((e: unknown) => e)) as SourceError;

    expect(err.message).toMatch(/^x is unavailable \(platform down\) \(500\)/);
    expect(fake.requests).toHaveLength(4);
    expect(ctx.sleeps).toEqual([1000, 2000, 4000]);
  });

  it('400 carries the platform message', async () => {
    fake = await startFakeX();
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds(), plan: testPlan() });
    // Bypass the connector to send an invalid max_results and check the helper's message.
    const { getJson } = await import('../../../functions/core/sources/http-json.js');
    const err = (await getJson(ctx, `${fake.baseUrl}/2/tweets/search/recent?query=a&max_results=5`, { headers: { authorization: 'Bearer x-test-token' } }, { source: 'x' }).catch(
      (e: unknown) => e,
    )) as SourceError;
    expect(err.message).toMatch(/^x rejected the query \(invalid query\) \(400\): The `max_results` query parameter value \[5\] is not between 10 and 100/);
  });

  it('builds X query syntax from the plan', () => {
    expect(
      buildXQuery(testPlan({ keywords: ['acme', 'running shoes'], phrases: ['new model'], hashtags: ['#acmefail'], mentions: ['@acme'], exclude: ['sale', 'free shipping'], language: 'es' })),
    ).toBe('(acme "running shoes" "new model" OR #acmefail OR (@acme OR from:acme)) -sale -"free shipping" lang:es -is:retweet');
  });
});
