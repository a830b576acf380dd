import { afterEach, describe, expect, it } from 'vitest';
import { buildTiktokQuery, tiktokConnector, tiktokDateRange } from '../../../functions/core/sources/tiktok.js';
import { SourceError } from '../../../functions/core/sources/types.js';
import { startFakeTiktok, type FakeTiktok } from '../../fixtures/fake-sources/tiktok.js';
import { testContext, testPlan } from '../../fixtures/fake-sources/server.js';

let fake: FakeTiktok | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const creds = (over: Record<string, string> = {}) => ({ client_key: 'tt-client-key', client_secret: 'tt-client-secret', ...over });

describe('tiktok connector (fake Research API)', () => {
  it('gets a client token, then pages by cursor + search_id; keeps 19-digit ids exact', async () => {
    fake = await startFakeTiktok({ count: 24, pageSize: 10 });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds(), limit: 100 });

    const items = await tiktokConnector.search(ctx);

    expect(items).toHaveLength(24);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v2/oauth/token/',
      'POST /v2/research/video/query/?fields=id,video_description,create_time,username,like_count,comment_count,share_count,view_count',
      'POST /v2/research/video/query/?fields=id,video_description,create_time,username,like_count,comment_count,share_count,view_count',
      'POST /v2/research/video/query/?fields=id,video_description,create_time,username,like_count,comment_count,share_count,view_count',
    ]);
    const tokenForm = new URLSearchParams(fake.requests[0].body);
    expect(Object.fromEntries(tokenForm)).toEqual({ client_key: 'tt-client-key', client_secret: 'tt-client-secret', grant_type: 'client_credentials' });
    expect(fake.requests[1].headers.authorization).toBe('Bearer clt.fake-token');
    const [q1, q2, q3] = fake.queries;
    expect(q1.query).toEqual({ and: [{ operation: 'EQ', field_name: 'keyword', field_values: ['acme'] }] });
    expect(q1.start_date).toMatch(/^\d{8}$/);
    expect(q1.max_count).toBe(100);
    expect(q1.search_id).toBeUndefined();
    expect(q2.cursor).toBe(10);
    expect(q2.search_id).toMatch(/^\d{19}$/);
    expect(q3.search_id).toBe(q2.search_id);
    expect(q3.cursor).toBe(20);
    expect(items.map((i) => i.id).sort()).toEqual(fake.videos.map((v) => v.id).sort());
  });

  it('maps videos (profile video URL, description, metrics)', async () => {
    fake = await startFakeTiktok({ count: 3 });
    const items = await tiktokConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds() }));
    const v = fake.videos[0];
    expect(items[0]).toEqual({
      source: 'tiktok',
      id: v.id,
      url: `https://www.tiktok.com/@${v.username}/video/${v.id}`,
      author: v.username,
      text: v.video_description,
      created_at: new Date(v.create_time * 1000).toISOString(),
      metrics: { likes: v.like_count, comments: v.comment_count, shares: v.share_count, views: v.view_count },
    });
  });

  it('respects the limit (max_count shrinks to what is left)', async () => {
    fake = await startFakeTiktok({ count: 24, pageSize: 10 });
    const items = await tiktokConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds(), limit: 15 }));
    expect(items).toHaveLength(15);
    expect(fake.queries.map((q) => q.max_count)).toEqual([15, 5]);
  });

  it('clamps a long window to 30 days and filters by since/until', async () => {
    fake = await startFakeTiktok({ count: 24, stepMs: 3_600_000 });
    const plan = testPlan({}, 90);
    await tiktokConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds(), plan }));
    const q = fake.queries[0];
    const days = (Date.UTC(+String(q.end_date).slice(0, 4), +String(q.end_date).slice(4, 6) - 1, +String(q.end_date).slice(6)) -
      Date.UTC(+String(q.start_date).slice(0, 4), +String(q.start_date).slice(4, 6) - 1, +String(q.start_date).slice(6))) / 86_400_000;
    expect(days).toBe(29);

    const narrow = testPlan({ since: new Date(fake.videos[5].create_time * 1000).toISOString() });
    const items = await tiktokConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds(), plan: narrow }));
    expect(items.map((i) => i.id)).toEqual(fake.videos.slice(0, 6).map((v) => v.id));
  });

  it('retries 429 honouring Retry-After', async () => {
    fake = await startFakeTiktok({ rateLimitFirst: 2, retryAfter: '1', count: 5 });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds() });
    const items = await tiktokConnector.search(ctx);
    expect(items).toHaveLength(5);
    expect(ctx.sleeps).toEqual([1000, 1000]);
  });

  it('final 429 → rate limited with the platform message', async () => {
    fake = await startFakeTiktok({ rateLimitFirst: 99, retryAfter: '2', rateLimitWhen: (r) => r.path.startsWith('/v2/research') });
    const err = (await tiktokConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds() })).catch((e: unknown) => e)) as SourceError;
    expect(err.message).toBe('tiktok rate limited (429): rate_limit_exceeded: The API rate limit was exceeded. Please try again later.; retry after 2 s');
    expect(err.retryAfterSeconds).toBe(2);
  });

  it('bad client secret → how-to-fix message', async () => {
    fake = await startFakeTiktok();
    const err = (await tiktokConnector
      .search(testContext({ baseUrl: fake.baseUrl, credentials: creds({ client_secret: 'wrong' }) }))
      .catch((e: unknown) => e)) as SourceError;
    expect(err).toBeInstanceOf(SourceError);
    expect(err.message).toBe(
      'tiktok rejected the credentials (401): invalid_client: Client key or secret is incorrect.; update them with PUT /dashboard/api/sources/tiktok',
    );
  });

  it('401 access_token_invalid on the query → credentials message', async () => {
    // The fake issues one token but accepts another: the query endpoint answers 401.
    fake = await startFakeTiktok({ accessToken: 'clt.accepted' });
    const ctx = testContext({
      baseUrl: fake.baseUrl,
      credentials: creds(),
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        if (url.includes('/oauth/token/')) return new Response(JSON.stringify({ access_token: 'clt.stale', expires_in: 7200, token_type: 'Bearer' }), { status: 200 });
        return res;
      },
    });
    const err = (await tiktokConnector.search(ctx).catch((e: unknown) => e)) as SourceError;
    expect(err.message).toBe(
      'tiktok rejected the credentials (401): access_token_invalid: The access token is invalid or not found in the request.; update them with PUT /dashboard/api/sources/tiktok',
    );
    // The stale token was refreshed once (two token requests), then reported.
    expect(fake.requests.filter((r) => r.path.startsWith('/v2/oauth/token/'))).toHaveLength(2);
  });

  it('missing credentials → message naming both fields', async () => {
    fake = await startFakeTiktok();
    const err = (await tiktokConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: undefined })).catch((e: unknown) => e)) as SourceError;
    expect(err.message).toBe(
      'tiktok credentials are missing (client_key, client_secret); add them with PUT /dashboard/api/sources/tiktok {"client_key":"…","client_secret":"…"}',
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('builds Research API queries and date ranges', () => {
    expect(buildTiktokQuery(testPlan({ keywords: ['acme'], phrases: ['trail runner'], exclude: ['sale'] }))).toEqual({
      and: [
        { operation: 'EQ', field_name: 'keyword', field_values: ['acme'] },
        { operation: 'EQ', field_name: 'keyword', field_values: ['trail runner'] },
      ],
      not: [{ operation: 'IN', field_name: 'keyword', field_values: ['sale'] }],
    });
    expect(buildTiktokQuery(testPlan({ keywords: [], hashtags: ['#acme'], mentions: ['acmeofficial'] }))).toEqual({
      or: [
        { operation: 'IN', field_name: 'hashtag_name', field_values: ['acme'] },
        { operation: 'IN', field_name: 'keyword', field_values: ['acmeofficial'] },
      ],
    });
    expect(buildTiktokQuery(testPlan({ keywords: [] }))).toBeUndefined();
    const now = Date.UTC(2024, 4, 20, 12);
    expect(tiktokDateRange(testPlan({ since: '2024-05-18T23:00:00Z', until: '2024-05-19T01:00:00Z' }), now)).toEqual({ start_date: '20240518', end_date: '20240519' });
    expect(tiktokDateRange(testPlan({ since: '2024-01-01T00:00:00Z', until: '2024-06-01T00:00:00Z' }), now)).toEqual({ start_date: '20240421', end_date: '20240520' });
  });
});
