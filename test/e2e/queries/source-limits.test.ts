import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFakeYoutube, type FakeYoutube } from '../../fixtures/fake-sources/youtube.js';

/**
 * Source limits over HTTP (issue 13): search text length refused at submit (queries and jobs),
 * Reddit's identity required in its credentials, YouTube units counted per tenant and shown in the
 * Social area, the Graph API version per deployment with its retirement warning in monitoring.
 */

let svc: TestService;
let yt: FakeYoutube;

beforeAll(async () => {
  yt = await startFakeYoutube({ count: 20 });
  svc = await startTestService({
    GLEANER_SOURCE_YOUTUBE_BASE_URL: yt.baseUrl,
    GLEANER_EGRESS_ALLOW: new URL(yt.baseUrl).host,
    // An old version on purpose: it retires on 2027-01-21, so the console must warn.
    GLEANER_GRAPH_API_VERSION: 'v21.0',
  });
});
afterAll(async () => {
  await svc?.destroy();
  await yt?.close();
});

// 70 distinct words: an X or Reddit search text of about 700 characters (the limit is 512), a 1,000-character prompt.
const longPrompt = Array.from({ length: 70 }, (_, i) => `brandterm${i}`).join(' ');

describe('search text length', () => {
  it('POST /v1/queries → 400 naming the source and its limit', async () => {
    const r = await svc.call('/v1/queries', { method: 'POST', json: { prompt: longPrompt, sources: ['x', 'reddit', 'youtube'] } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.message).toMatch(/x search text for this prompt would be \d+ characters; x accepts at most 512/);
    expect(r.body.message).toMatch(/reddit accepts at most 512/);
    expect(r.body.message).not.toMatch(/youtube/);
  });

  it('POST /v1/jobs → 400 too; the same prompt is fine for a source without that limit', async () => {
    const bad = await svc.call('/v1/jobs', { method: 'POST', json: { prompt: longPrompt, sources: ['x'], label: 'long', schedule: '0 * * * *' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/x accepts at most 512/);
    const ok = await svc.call('/v1/queries', { method: 'POST', json: { prompt: longPrompt, sources: ['tiktok'] } });
    expect(ok.status).toBe(202);
  });
});

describe('reddit credentials', () => {
  it('require the app id and the username for the User-Agent (400 otherwise)', async () => {
    const r = await svc.call('/dashboard/api/sources/reddit', { method: 'PUT', json: { client_id: 'c', client_secret: 's' } });
    expect(r.status).toBe(400);
    expect(r.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['body.app_id', 'body.username']);
    const ok = await svc.call('/dashboard/api/sources/reddit', { method: 'PUT', json: { client_id: 'c', client_secret: 's', app_id: 'com.example.brand', username: 'brand_dev' } });
    expect(ok.status).toBe(200);
  });
});

describe('quotas and platform versions in the console API', () => {
  it('counts the YouTube units a query spends and shows them in GET /dashboard/api/social', async () => {
    expect((await svc.call('/dashboard/api/sources/youtube', { method: 'PUT', json: { api_key: 'yt-test-key' } })).status).toBe(200);
    const before = await svc.call('/dashboard/api/social');
    expect(before.body.quotas.youtube).toMatchObject({ unit: 'units', used: 0, limit: 10_000, remaining: 10_000 });
    const q = await svc.call('/v1/queries', { method: 'POST', json: { prompt: 'acme reviews', sources: ['youtube'], limit: 20 } });
    expect(q.status).toBe(202);
    for (let i = 0; i < 200; i++) {
      const r = await svc.call(`/v1/queries/${q.body.query_id}`);
      if (r.body.status === 'completed' || r.body.status === 'failed') break;
      await new Promise((res) => setTimeout(res, 50));
    }
    const searchCalls = yt.requests.filter((r) => r.path.startsWith('/youtube/v3/search')).length;
    const videoCalls = yt.requests.filter((r) => r.path.startsWith('/youtube/v3/videos')).length;
    expect(searchCalls).toBeGreaterThan(0);
    expect(videoCalls).toBeGreaterThan(0);
    const after = await svc.call('/dashboard/api/social');
    expect(after.body.quotas.youtube.used).toBe(searchCalls * 100 + videoCalls);
    expect(after.body.quotas.youtube.resets_at).toMatch(/T0[78]:00:00\.000Z$/);
  });

  it('reports the Graph API version of the deployment and warns in monitoring as retirement approaches', async () => {
    const soc = await svc.call('/dashboard/api/social');
    expect(soc.body.graph_api).toMatchObject({ version: 'v21.0', available_until: '2027-01-21' });
    expect(['retiring', 'retired']).toContain(soc.body.graph_api.state);
    expect(soc.body.warnings.join(' ')).toMatch(/Graph API v21\.0 (retires on|was retired on) 2027-01-21/);
    const mon = await svc.call('/dashboard/api/monitoring');
    expect(mon.body.platform_warnings.join(' ')).toMatch(/v21\.0.*GLEANER_GRAPH_API_VERSION/);
  });
});
