import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startCanary, startFixtureSite, type Canary, type FixtureSite } from '../../fixtures/site/server.js';
import { FAKE_KEYS, PROVIDER_SECRET_DETAIL, badDays, startFakeSearch, type FakeSearch } from '../../fixtures/fake-search/fake-search.js';
import { run as admin } from '../../../functions/cli/admin.js';
import { keys } from '../../../functions/core/table-keys.js';

// POST /v1/search from outside, against fakes of the providers' documented APIs and the fixture
// site (which counts every request): ranked as the provider ranked, denied results never fetched,
// duplicates fetched once, one failing page leaving the rest intact, a provider's 429 answered
// with Retry-After, credentials and provider error bodies in no response, quota and audit.

let svc: TestService;
let site: FixtureSite;
let canary: Canary;
let brave: FakeSearch;
let tavily: FakeSearch;
let searxng: FakeSearch;
const hp = (u: string) => new URL(u).host;

beforeAll(async () => {
  [site, canary] = await Promise.all([startFixtureSite(), startCanary()]);
  [brave, tavily, searxng] = await Promise.all([startFakeSearch('brave'), startFakeSearch('tavily'), startFakeSearch('searxng')]);
  svc = await startTestService({
    GLEANER_SEARCH_BRAVE_BASE_URL: brave.baseUrl,
    GLEANER_SEARCH_TAVILY_BASE_URL: tavily.baseUrl,
    GLEANER_EGRESS_ALLOW: [site.baseUrl, brave.baseUrl, tavily.baseUrl, searxng.baseUrl].map(hp).join(','),
  });
});
afterAll(async () => {
  await svc?.destroy();
  await Promise.all([site?.close(), canary?.close(), brave?.close(), tavily?.close(), searxng?.close()]);
});

const search = (json: unknown, key?: string) => svc.call('/v1/search', { method: 'POST', json, ...(key ? { key } : {}) });
const putProvider = (p: string, json: unknown, key?: string) => svc.call(`/dashboard/api/search-providers/${p}`, { method: 'PUT', json, ...(key ? { key } : {}) });

describe('search providers (credentials)', () => {
  it('422 search_not_configured before any provider has credentials', async () => {
    const r = await search({ query: 'anything' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('search_not_configured');
    expect(brave.requests).toHaveLength(0);
  });

  it('stores credentials encrypted and never returns them; lists and tests them', async () => {
    const put = await putProvider('brave', { api_key: FAKE_KEYS.brave });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ provider: 'brave', fields: ['api_key'], updated_at: expect.any(String), configured: true });
    expect(put.text).not.toContain(FAKE_KEYS.brave);
    const list = await svc.call('/dashboard/api/search-providers');
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { provider: string; configured: boolean }) => [p.provider, p.configured])).toEqual([['brave', true], ['tavily', false], ['exa', false], ['searxng', false]]);
    expect(list.text).not.toContain(FAKE_KEYS.brave);
    const test = await svc.call('/dashboard/api/search-providers/brave/test', { method: 'POST' });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ provider: 'brave', ok: true, error: null });
    expect(test.text).not.toContain(FAKE_KEYS.brave);
  });

  it('rejects unknown fields, a missing key, and a SearXNG base URL the egress guard refuses', async () => {
    expect((await putProvider('tavily', { token: 'x' })).body.code).toBe('invalid_request');
    expect((await putProvider('tavily', {})).status).toBe(400);
    const refused = await putProvider('searxng', { base_url: canary.url });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('target_forbidden');
    expect(canary.connections()).toBe(0);
    expect((await putProvider('nope', { api_key: 'x' })).status).toBe(400);
  });

  it('save-and-test reports rejected credentials in its own words, without the provider body', async () => {
    const r = await svc.call('/dashboard/api/search-providers/tavily/test', { method: 'POST', json: { api_key: 'tvly-wrong' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ provider: 'tavily', ok: false, error: { code: 'provider_credentials_rejected' } });
    expect(r.text).not.toContain(PROVIDER_SECRET_DETAIL);
    expect(r.text).not.toContain('tvly-wrong');
    expect((await putProvider('tavily', { api_key: FAKE_KEYS.tavily })).status).toBe(200);
  });
});

describe('POST /v1/search', () => {
  it('validates the body (400 with details)', async () => {
    for (const [json, path] of [[{ query: '' }, 'body.query'], [{ query: 'q', limit: 0 }, 'body.limit'], [{ query: 'q', provider: 'bing' }, 'body.provider'], [{ query: 'q', extra: 1 }, 'body']] as const) {
      const r = await search(json);
      expect(r.status).toBe(400);
      expect(r.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  it('ranks as the provider ranked, decides each result before any fetch, fetches duplicates once and denied results never, and isolates a failing page', async () => {
    expect((await svc.call('/dashboard/api/settings/target-policy', { method: 'PUT', json: { mode: 'allowlist', domains: ['127.0.0.1'] } })).status).toBe(200);
    const b = site.baseUrl;
    brave.results = [
      { url: `${b}/article`, title: 'Article', snippet: 'the article', published: '2026-11-01T00:00:00Z' },
      { url: 'https://elsewhere.example/story', title: 'Elsewhere', snippet: 'outside the allowlist' },
      { url: `${b}/article?utm_source=newsletter#intro`, title: 'Article again', snippet: 'duplicate' },
      { url: `${b}/private/secret`, title: 'Private', snippet: 'robots.txt says no' },
      { url: `${canary.url}leak`, title: 'Canary', snippet: 'loopback, not allowed' },
      { url: `${b}/challenge`, title: 'Challenge', snippet: 'a challenge wall' },
      { url: `${b}/about`, title: 'About', snippet: 'about us' },
    ];
    const before = site.hitsByPath();
    const r = await search({ query: 'fixture pages', limit: 10, scrape: { formats: ['markdown', 'metadata'], engine: 'http' } });
    expect(r.status).toBe(200);
    expect(r.body.provider).toBe('brave');
    expect(r.body.data.map((d: { rank: number; url: string }) => [d.rank, d.url])).toEqual([
      [1, `${b}/article`], [2, 'https://elsewhere.example/story'], [3, `${b}/private/secret`], [4, `${canary.url}leak`], [5, `${b}/challenge`], [6, `${b}/about`],
    ]);
    const [article, elsewhere, priv, leak, challenge, about] = r.body.data;
    expect(article).toMatchObject({ title: 'Article', snippet: 'the article', published_at: '2026-11-01T00:00:00.000Z', policy: { decision: 'allowed' }, scrape: { status_code: 200, markdown: expect.any(String) } });
    expect(elsewhere).toMatchObject({ policy: { decision: 'denied', reason: expect.stringMatching(/^target_not_authorized/) } });
    expect(elsewhere.scrape).toBeUndefined();
    expect(priv.policy).toMatchObject({ decision: 'denied', reason: expect.stringMatching(/^robots_disallowed/) });
    expect(leak.policy).toMatchObject({ decision: 'denied', reason: expect.stringMatching(/^target_forbidden/) });
    expect(challenge.scrape).toEqual({ error: { code: 'challenge_detected', message: expect.any(String) } });
    expect(about).toMatchObject({ policy: { decision: 'allowed' }, scrape: { status_code: 200 } });
    const hits = (p: string) => (site.hitsByPath().get(p) ?? 0) - (before.get(p) ?? 0);
    expect(hits('/article')).toBe(1);
    expect(hits('/about')).toBe(1);
    expect(hits('/private/secret')).toBe(0);
    expect(canary.connections()).toBe(0);
    // Three pages were fetched; the challenge is not billed.
    expect(r.body.usage).toEqual({ searches: 1, pages: 2 });
    expect(JSON.stringify(r.body)).not.toContain(FAKE_KEYS.brave);
    expect((await svc.call('/dashboard/api/settings/target-policy', { method: 'PUT', json: { mode: 'open', domains: [] } })).status).toBe(200);
  });

  it('leaves one audit record for the search and one per fetched URL, and counts usage', async () => {
    brave.results = [{ url: `${site.baseUrl}/about`, title: 'About', snippet: '' }, { url: `${site.baseUrl}/pages/1`, title: 'One', snippet: '' }];
    const usage0 = (await svc.call('/v1/tenant')).body.usage;
    const r = await search({ query: 'audit me', scrape: { engine: 'http' } });
    expect(r.status).toBe(200);
    const usage1 = (await svc.call('/v1/tenant')).body.usage;
    expect(usage1.searches - usage0.searches).toBe(1);
    expect(usage1.pages - usage0.pages).toBe(2);
    const runs = (await svc.call('/dashboard/api/audit?action=search.run&limit=200')).body.data.filter((a: { resource: string }) => a.resource === 'audit me');
    expect(runs).toHaveLength(1);
    const fetches = (await svc.call('/dashboard/api/audit?action=search.fetch&limit=200')).body.data.map((a: { resource: string }) => a.resource);
    expect(fetches.filter((u: string) => u === `${site.baseUrl}/pages/1`)).toHaveLength(1);
    const all = (await svc.call('/dashboard/api/audit?limit=200')).text;
    expect(all).not.toContain(FAKE_KEYS.brave);
  });

  it('uses the provider asked for (tavily), a self-hosted SearXNG by base URL, and passes no body of theirs on', async () => {
    tavily.results = [{ url: `${site.baseUrl}/about`, title: 'About (tavily)', snippet: 'x' }];
    const t = await search({ query: 'via tavily', provider: 'tavily' });
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ provider: 'tavily', data: [{ rank: 1, title: 'About (tavily)' }] });
    expect((await putProvider('searxng', { base_url: searxng.baseUrl })).status).toBe(200);
    searxng.results = [{ url: `${site.baseUrl}/pages/2`, title: 'Two', snippet: 'x' }];
    const s = await search({ query: 'via searxng', provider: 'searxng' });
    expect(s.status).toBe(200);
    expect(s.body.data[0]).toMatchObject({ url: `${site.baseUrl}/pages/2` });
    expect((await search({ query: 'q', provider: 'exa' })).body.code).toBe('search_not_configured');
  });

  it('a SearXNG whose host the egress guard now refuses is 422 provider_misconfigured, before anything is queued or connected', async () => {
    const key = keys.record(svc.tenantId, 'SRCH', 'searxng');
    const stored = await svc.deps.table.get(key);
    await svc.deps.table.put({ ...stored!, ...key, base_url: canary.url });
    const r = await search({ query: 'q', provider: 'searxng' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('provider_misconfigured');
    expect(canary.connections()).toBe(0);
    await svc.deps.table.put(stored!);
  });

  it('a provider 429 is a clear 429 with Retry-After, without the provider body', async () => {
    brave.state.incidents.push(badDays.rateLimited('brave', 37));
    const r = await search({ query: 'too fast' });
    expect(r.status).toBe(429);
    expect(r.body.code).toBe('provider_rate_limited');
    expect(r.headers.get('retry-after')).toBe('37');
    expect(r.text).not.toContain(PROVIDER_SECRET_DETAIL);
    brave.state.incidents.push(badDays.rateLimitedNoHeader('tavily'));
    tavily.state.incidents.push(badDays.rateLimitedNoHeader('tavily'));
    const t = await search({ query: 'too fast', provider: 'tavily' });
    expect(t.status).toBe(429);
    expect(Number(t.headers.get('retry-after'))).toBeGreaterThan(0);
    brave.state.incidents.length = 0;
  });

  it('a malformed provider answer is 502 provider_bad_response', async () => {
    brave.malformed = 'html';
    const r = await search({ query: 'broken' });
    brave.malformed = false;
    expect(r.status).toBe(502);
    expect(r.body.code).toBe('provider_bad_response');
  });

  it('monthly_searches: 402 quota_exceeded once used up, no provider call', async () => {
    const t = (await admin(['tenants', 'create', '--name', 'search-quota'], svc.deps.table)) as { tenant_id: string; api_key: string };
    await admin(['tenants', 'set-limits', t.tenant_id, '--rate', '600/60', '--monthly-searches', '1'], svc.deps.table);
    expect((await putProvider('brave', { api_key: FAKE_KEYS.brave }, t.api_key)).status).toBe(200);
    brave.results = [{ url: `${site.baseUrl}/about`, title: 'About', snippet: '' }];
    expect((await search({ query: 'first' }, t.api_key)).status).toBe(200);
    const calls = brave.queries.length;
    const second = await search({ query: 'second' }, t.api_key);
    expect(second.status).toBe(402);
    expect(second.body.code).toBe('quota_exceeded');
    expect(brave.queries.length).toBe(calls);
  });

  it('403 for a key without search:run', async () => {
    const k = (await svc.call('/dashboard/api/keys', { method: 'POST', json: { name: 'no-search', scopes: ['runs:read'] } })).body;
    const r = await search({ query: 'q' }, k.api_key);
    expect(r.status).toBe(403);
  });
});
