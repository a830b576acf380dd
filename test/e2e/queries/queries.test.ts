import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFakeX, type FakeX } from '../../fixtures/fake-sources/x.js';
import { startFakeReddit, type FakeReddit } from '../../fixtures/fake-sources/reddit.js';
import { startFakeYoutube, type FakeYoutube } from '../../fixtures/fake-sources/youtube.js';

let svc: TestService;
let x: FakeX;
let reddit: FakeReddit;
let yt: FakeYoutube;
const hostPort = (u: string) => new URL(u).host;

beforeAll(async () => {
  [x, reddit, yt] = await Promise.all([startFakeX({ count: 30 }), startFakeReddit({ count: 30 }), startFakeYoutube({ count: 30 })]);
  svc = await startTestService({
    GLEANER_SOURCE_X_BASE_URL: x.baseUrl,
    GLEANER_SOURCE_REDDIT_BASE_URL: reddit.baseUrl,
    GLEANER_SOURCE_YOUTUBE_BASE_URL: yt.baseUrl,
    GLEANER_EGRESS_ALLOW: [x.baseUrl, reddit.baseUrl, yt.baseUrl].map(hostPort).join(','),
  });
  const put = (source: string, json: unknown) => svc.call(`/dashboard/api/sources/${source}`, { method: 'PUT', json });
  expect((await put('x', { bearer_token: 'x-test-token' })).status).toBe(200);
  expect((await put('reddit', { client_id: 'reddit-client', client_secret: 'reddit-secret', app_id: 'com.example.brandwatch', username: 'brand_dev' })).status).toBe(200);
  expect((await put('youtube', { api_key: 'yt-test-key' })).status).toBe(200);
});
afterAll(async () => {
  await svc?.destroy();
  await Promise.all([x?.close(), reddit?.close(), yt?.close()]);
});

async function poll(id: string) {
  for (let i = 0; i < 200; i++) {
    const r = await svc.call(`/v1/queries/${id}`);
    if (r.body.status === 'completed' || r.body.status === 'failed') return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('query did not finish');
}

describe('POST /v1/queries validation', () => {
  const bad: Array<[string, unknown, string]> = [
    ['empty prompt', { prompt: '', sources: ['x'] }, 'body.prompt'],
    ['prompt too long', { prompt: 'a'.repeat(2001), sources: ['x'] }, 'body.prompt'],
    ['no sources', { prompt: 'acme', sources: [] }, 'body.sources'],
    ['unknown source', { prompt: 'acme', sources: ['myspace'] }, 'body.sources.0'],
    ['duplicate sources', { prompt: 'acme', sources: ['x', 'x'] }, 'body.sources'],
    ['limit 0', { prompt: 'acme', sources: ['x'], limit: 0 }, 'body.limit'],
    ['limit 1001', { prompt: 'acme', sources: ['x'], limit: 1001 }, 'body.limit'],
    ['bad window', { prompt: 'acme', sources: ['x'], time_window: { last: 'forever' } }, 'body.time_window'],
    ['both window kinds', { prompt: 'acme', sources: ['x'], time_window: { last: '7d', since: '2026-01-01T00:00:00Z' } }, 'body.time_window'],
    ['unknown field', { prompt: 'acme', sources: ['x'], colour: 'red' }, 'body'],
    ['missing prompt', { sources: ['x'] }, 'body.prompt'],
  ];
  it.each(bad)('%s -> 400 with details', async (_name, json, path) => {
    const r = await svc.call('/v1/queries', { method: 'POST', json });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('404 for an unknown query id and 400 for a malformed one', async () => {
    expect((await svc.call('/v1/queries/qry_00000000000000000000000000')).status).toBe(404);
    expect((await svc.call('/v1/queries/nope')).status).toBe(400);
  });
});

describe('a query over three sources', () => {
  it('completes with merged, limited, de-duplicated items, and the same results in storage', async () => {
    const sub = await svc.call('/v1/queries', { method: 'POST', json: { prompt: 'acme running shoes', sources: ['x', 'reddit', 'youtube'], limit: 40, time_window: { last: '7d' } } });
    expect(sub.status).toBe(202);
    expect(sub.body).toMatchObject({ query_id: expect.stringMatching(/^qry_/), status: 'queued', created_at: expect.any(String) });
    const done = await poll(sub.body.query_id);
    expect(done.body.status).toBe('completed');
    const { items, by_source, summary, plan } = done.body.results;
    expect(items).toHaveLength(40);
    expect(new Set(items.map((i: { source: string; id: string }) => `${i.source}:${i.id}`)).size).toBe(40);
    expect(new Set(items.map((i: { source: string }) => i.source))).toEqual(new Set(['x', 'reddit', 'youtube']));
    const times = items.map((i: { created_at: string }) => Date.parse(i.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const s of ['x', 'reddit', 'youtube']) expect(by_source[s].status).toBe('ok');
    expect(summary.total).toBe(40);
    expect(plan.keywords).toEqual(expect.arrayContaining(['acme', 'running', 'shoes']));
    const stored = await svc.call(`/v1/storage/${sub.body.query_id}`);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('content-type')).toContain('application/json');
    expect(stored.body).toEqual(done.body.results);
    const list = await svc.call('/v1/storage');
    expect(list.body.data[0]).toMatchObject({ key: sub.body.query_id, query_id: sub.body.query_id, job_id: null, content_type: 'application/json' });
  });

  it('completes when one source is down, with that source as error', async () => {
    yt.state.down = true;
    try {
      const sub = await svc.call('/v1/queries', { method: 'POST', json: { prompt: 'acme', sources: ['x', 'youtube'], limit: 10 } });
      const done = await poll(sub.body.query_id);
      expect(done.body.status).toBe('completed');
      expect(done.body.results.by_source.youtube).toMatchObject({ status: 'error', error: expect.any(String) });
      expect(done.body.results.by_source.x.status).toBe('ok');
      expect(done.body.results.items.every((i: { source: string }) => i.source === 'x')).toBe(true);
    } finally {
      yt.state.down = false;
    }
  });

  it('fails with a readable error when no source answers (one down, one without credentials)', async () => {
    x.state.down = true;
    try {
      const sub = await svc.call('/v1/queries', { method: 'POST', json: { prompt: 'acme', sources: ['x', 'tiktok'] } });
      const done = await poll(sub.body.query_id);
      expect(done.body.status).toBe('failed');
      expect(done.body.results).toBeUndefined();
      expect(done.body.error).toMatch(/No source answered/);
      expect(done.body.error).toMatch(/tiktok: .*PUT \/dashboard\/api\/sources\/tiktok/);
    } finally {
      x.state.down = false;
    }
  });

  it('never returns stored credentials', async () => {
    const r = await svc.call('/dashboard/api/sources');
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body)).not.toContain('x-test-token');
    expect(r.body.data.find((s: { source: string }) => s.source === 'x')).toMatchObject({ configured: true, fields: ['bearer_token'] });
    const bad = await svc.call('/dashboard/api/sources/x', { method: 'PUT', json: { token: 'oops' } });
    expect(bad.status).toBe(400);
  });

  it('lists queries newest first and keeps tenants apart', async () => {
    const list = await svc.call('/v1/queries?limit=2');
    expect(list.body.data).toHaveLength(2);
    expect(list.body.next_cursor).toEqual(expect.any(String));
    const { run } = await import('../../../functions/cli/admin.js');
    const other = (await run(['tenants', 'create', '--name', 'other'], svc.deps.table)) as { api_key: string };
    const id = list.body.data[0].query_id;
    expect((await svc.call(`/v1/queries/${id}`, { key: other.api_key })).status).toBe(404);
    expect((await svc.call(`/v1/storage/${id}`, { key: other.api_key })).status).toBe(404);
  });
});
