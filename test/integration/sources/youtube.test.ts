import { afterEach, describe, expect, it } from 'vitest';
import { buildYoutubeQuery, youtubeConnector } from '../../../functions/core/sources/youtube.js';
import { SourceError } from '../../../functions/core/sources/types.js';
import { startFakeYoutube, type FakeYoutube } from '../../fixtures/fake-sources/youtube.js';
import { testContext, testPlan } from '../../fixtures/fake-sources/server.js';

let fake: FakeYoutube | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const creds = (key = 'yt-test-key') => ({ api_key: key });
const paths = (f: FakeYoutube) => f.requests.map((r) => new URL(r.path, f.baseUrl).pathname);
const params = (f: FakeYoutube, i: number) => new URL(f.requests[i].path, f.baseUrl).searchParams;

describe('youtube connector (fake YouTube Data API v3)', () => {
  it('pages search.list by pageToken, then fetches statistics with videos.list', async () => {
    fake = await startFakeYoutube({ count: 30, pageSize: 12 });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds(), plan: testPlan({ language: 'es' }, 10) });

    const items = await youtubeConnector.search(ctx);

    expect(items).toHaveLength(30);
    expect(paths(fake)).toEqual(['/youtube/v3/search', '/youtube/v3/search', '/youtube/v3/search', '/youtube/v3/videos']);
    const p = params(fake, 0);
    expect(Object.fromEntries(p)).toMatchObject({ part: 'snippet', type: 'video', q: 'acme', maxResults: '50', order: 'date', relevanceLanguage: 'es', key: 'yt-test-key' });
    expect(p.get('publishedAfter')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(p.get('publishedBefore')).toMatch(/Z$/);
    expect(params(fake, 1).get('pageToken')).toBe('CPT12');
    expect(params(fake, 3).get('part')).toBe('statistics');
    expect(params(fake, 3).get('id')!.split(',')).toHaveLength(30);
  });

  it('maps videos (watch URL, channel, decoded text, numeric statistics)', async () => {
    fake = await startFakeYoutube({ count: 3 });
    const items = await youtubeConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds() }));
    const v = fake.videos[1];
    expect(items[1]).toEqual({
      source: 'youtube',
      id: v.id,
      url: `https://www.youtube.com/watch?v=${v.id}`,
      author: 'Channel 1',
      text: `Acme review 1 & unboxing '1'\n\nVideo 1 about Acme shoes`,
      created_at: new Date(v.publishedAt).toISOString(),
      metrics: { views: 9999, likes: 499, comments: 1 },
    });
  });

  it('respects the limit and the plan window', async () => {
    fake = await startFakeYoutube({ count: 30, pageSize: 12, stepMs: 3_600_000 });
    const items = await youtubeConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds(), limit: 20 }));
    expect(items).toHaveLength(20);
    expect(paths(fake).filter((x) => x.endsWith('/search'))).toHaveLength(2);
    expect(params(fake, 2).get('id')!.split(',')).toHaveLength(20);

    fake.requests.length = 0;
    const plan = testPlan({ since: fake.videos[4].publishedAt });
    const recent = await youtubeConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds(), plan }));
    expect(recent.map((i) => i.id)).toEqual(fake.videos.slice(0, 5).map((v) => v.id));
  });

  it('retries 429 honouring Retry-After (HTTP date)', async () => {
    const when = new Date(Date.now() + 4000).toUTCString();
    fake = await startFakeYoutube({ rateLimitFirst: 1, retryAfter: when, count: 2 });
    const ctx = testContext({ baseUrl: fake.baseUrl, credentials: creds() });
    const items = await youtubeConnector.search(ctx);
    expect(items).toHaveLength(2);
    expect(ctx.sleeps).toHaveLength(1);
    expect(ctx.sleeps[0]).toBeGreaterThan(1000);
    expect(ctx.sleeps[0]).toBeLessThanOrEqual(4000);
  });

  it('invalid API key (Google answers 400 API_KEY_INVALID) → how-to-fix message', async () => {
    fake = await startFakeYoutube();
    const err = (await youtubeConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds('bad') })).catch((e: unknown) => e)) as SourceError;
    expect(err).toBeInstanceOf(SourceError);
    expect(err.message).toBe(
      'youtube rejected the credentials (400): API key not valid. Please pass a valid API key.; update them with PUT /dashboard/api/sources/youtube',
    );
  });

  it('quota exceeded (403) → quota message, not a credentials message', async () => {
    fake = await startFakeYoutube({ quotaExceeded: true });
    const err = (await youtubeConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: creds() })).catch((e: unknown) => e)) as SourceError;
    expect(err.message).toMatch(/^youtube quota exhausted: YouTube Data API daily quota \(units of the Google Cloud project\) \(403\): The request cannot be completed because you have exceeded your quota\.; it resets at \S+T0[78]:00:00\.000Z/);
    expect(err.kind).toBe('quota');
    expect(fake.requests).toHaveLength(1);
  });

  it('missing api_key → message naming the field', async () => {
    fake = await startFakeYoutube();
    const err = (await youtubeConnector.search(testContext({ baseUrl: fake.baseUrl, credentials: {} })).catch((e: unknown) => e)) as SourceError;
    expect(err.message).toBe('youtube credentials are missing (api_key); add them with PUT /dashboard/api/sources/youtube {"api_key":"…"}');
    expect(fake.requests).toHaveLength(0);
  });

  it('builds YouTube q syntax (| for OR, - for NOT)', () => {
    expect(buildYoutubeQuery(testPlan({ keywords: ['acme'], phrases: ['trail runner'], hashtags: ['acme'], mentions: ['AcmeOfficial'], exclude: ['sale'] }))).toBe(
      'acme "trail runner"|#acme|@AcmeOfficial -sale',
    );
  });
});
