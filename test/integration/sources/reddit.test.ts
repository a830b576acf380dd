import { afterEach, describe, expect, it } from 'vitest';
import { buildRedditQuery, redditConnector, redditTimeFilter, redditTokenUrl } from '../../../functions/core/sources/reddit.js';
import { SourceError } from '../../../functions/core/sources/types.js';
import { startFakeReddit, type FakeReddit } from '../../fixtures/fake-sources/reddit.js';
import { testContext, testPlan } from '../../fixtures/fake-sources/server.js';

let fake: FakeReddit | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const creds = (over: Record<string, string> = {}) => ({ client_id: 'reddit-client', client_secret: 'reddit-secret', app_id: 'com.example.brandwatch', username: 'brand_dev', ...over });
const params = (f: FakeReddit, i: number) => new URL(f.requests[i].path, f.baseUrl).searchParams;

describe('reddit connector (fake Reddit OAuth API)', () => {
  it('gets a client-credentials token, then pages /search by `after`', async () => {
    fake = await startFakeReddit({ count: 30, pageSize: 10, stepMs: 3_600_000 });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds(), limit: 100 });

    const items = await redditConnector.search(ctx);

    expect(items).toHaveLength(30);
    expect(fake.requests.map((r) => `${r.method} ${new URL(r.path, fake!.baseUrl).pathname}`)).toEqual([
      'POST /api/v1/access_token',
      'GET /search',
      'GET /search',
      'GET /search',
    ]);
    const tokenReq = fake.requests[0];
    expect(tokenReq.body).toBe('grant_type=client_credentials');
    expect(tokenReq.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(tokenReq.headers.authorization).toBe(`Basic ${Buffer.from('reddit-client:reddit-secret').toString('base64')}`);
    const p1 = params(fake, 1);
    expect(Object.fromEntries(p1)).toMatchObject({ q: 'acme', sort: 'new', limit: '100', t: 'week', restrict_sr: 'false', type: 'link' });
    expect(p1.get('after')).toBeNull();
    expect(params(fake, 2).get('after')).toBe(fake.posts[9].name);
    expect(fake.requests[1].headers.authorization).toBe('bearer reddit-access-token');
    // Reddit's rule: <platform>:<app ID>:<version> (by /u/<username>), the tenant's own app and account.
    expect(fake.requests[1].headers['user-agent']).toBe('web:com.example.brandwatch:v1.0 (by /u/brand_dev)');
  });

  it('maps posts (permalink URL, title + selftext, [deleted] author → null, metrics)', async () => {
    fake = await startFakeReddit({ count: 8 });
    const items = await redditConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds() }));
    const p = fake.posts[1];
    expect(items[1]).toEqual({
      source: 'reddit',
      id: p.id,
      url: `https://www.reddit.com${p.permalink}`,
      author: p.author,
      text: `${p.title}\n\n${p.selftext}`,
      created_at: new Date(p.created_utc * 1000).toISOString(),
      metrics: { score: p.score, comments: p.num_comments, upvote_ratio: 0.9 },
    });
    expect(items[6].author).toBeNull();
    expect(items[0].text).toBe(fake.posts[0].title);
  });

  it('respects the limit and stops paging once posts are older than since', async () => {
    fake = await startFakeReddit({ count: 30, pageSize: 10 });
    const limited = await redditConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds(), limit: 15 }));
    expect(limited).toHaveLength(15);
    expect(fake.requests.filter((r) => r.path.startsWith('/search'))).toHaveLength(2);

    fake.requests.length = 0;
    // Posts are 2 h apart; since = 5 h ago keeps 3 posts, all on page 1, so one search call suffices.
    const plan = testPlan({ since: new Date(Date.now() - 5 * 3_600_000).toISOString() });
    const recent = await redditConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds(), plan }));
    expect(recent.map((i) => i.id)).toEqual(fake.posts.slice(0, 3).map((p) => p.id));
    expect(fake.requests.filter((r) => r.path.startsWith('/search'))).toHaveLength(1);
    expect(params(fake, 1).get('t')).toBe('day');
  });

  it('uses the password grant when username and password are given', async () => {
    fake = await startFakeReddit({ username: 'owner', password: 'pw', count: 3 });
    const items = await redditConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds({ username: 'owner', password: 'pw', app_version: '2.0' }) }));
    expect(items).toHaveLength(3);
    expect(new URLSearchParams(fake.requests[0].body).get('grant_type')).toBe('password');
    expect(fake.requests[1].headers['user-agent']).toBe('web:com.example.brandwatch:2.0 (by /u/owner)');

    const err = (await redditConnector
      .search(testContext({ baseUrl: fake.baseUrl, credentials: creds({ username: 'owner', password: 'bad' }) }))
      .catch((e: unknown) => e)) as SourceError;
    expect(err.message).toBe('reddit rejected the credentials (token request): invalid_grant; update them with PUT /dashboard/api/sources/reddit');
  });

  it('retries 429 on search honouring Retry-After', async () => {
    fake = await startFakeReddit({ rateLimitFirst: 1, retryAfter: '2', rateLimitWhen: (r) => r.path.startsWith('/search'), count: 4 });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds() });
    const items = await redditConnector.search(ctx);
    expect(items).toHaveLength(4);
    expect(ctx.sleeps).toEqual([2000]);
  });

  it('uses x-ratelimit-reset (seconds) when Retry-After is absent', async () => {
    fake = await startFakeReddit({ rateLimitFirst: 1, retryAfter: null, rateLimitHeaders: { 'x-ratelimit-reset': '4' }, count: 2 });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds() });
    await redditConnector.search(ctx);
    expect(ctx.sleeps).toEqual([4000]);
  });

  it('401 on a bad client secret → how-to-fix message', async () => {
    fake = await startFakeReddit();
    const err = (await redditConnector
      .search(testContext({ baseUrl: fake.baseUrl, credentials: creds({ client_secret: 'nope' }) }))
      .catch((e: unknown) => e)) as SourceError;
    expect(err).toBeInstanceOf(SourceError);
    expect(err.message).toBe('reddit rejected the credentials (401): Unauthorized; update them with PUT /dashboard/api/sources/reddit');
  });

  it('missing credentials → message listing client_id and client_secret', async () => {
    fake = await startFakeReddit();
    const err = (await redditConnector
      .search(testContext({ baseUrl: fake.baseUrl, credentials: { client_id: 'x' } }))
      .catch((e: unknown) => e)) as SourceError;
    expect(err.message).toBe(
      'reddit credentials are missing (client_id, client_secret, app_id, username); add them with PUT /dashboard/api/sources/reddit {"client_id":"…","client_secret":"…","app_id":"…","username":"…"}',
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('token URL, query syntax and time filter', () => {
    expect(redditTokenUrl('https://oauth.reddit.com')).toBe('https://www.reddit.com/api/v1/access_token');
    expect(redditTokenUrl('https://oauth.reddit.com/')).toBe('https://www.reddit.com/api/v1/access_token');
    expect(redditTokenUrl('http://127.0.0.1:9999')).toBe('http://127.0.0.1:9999/api/v1/access_token');
    expect(buildRedditQuery(testPlan({ keywords: ['acme'], phrases: ['trail runner'], hashtags: ['acmefail'], mentions: ['acme_official'], exclude: ['sale'] }))).toBe(
      '(acme "trail runner" OR acmefail OR author:acme_official) NOT sale',
    );
    const now = Date.now();
    expect(redditTimeFilter(new Date(now - 30 * 60_000).toISOString(), now)).toBe('hour');
    expect(redditTimeFilter(new Date(now - 3 * 86_400_000).toISOString(), now)).toBe('week');
    expect(redditTimeFilter(new Date(now - 20 * 86_400_000).toISOString(), now)).toBe('month');
    expect(redditTimeFilter(new Date(now - 400 * 86_400_000).toISOString(), now)).toBe('all');
  });
});
