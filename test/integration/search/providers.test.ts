import { afterEach, describe, expect, it } from 'vitest';
import { searchProviders } from '../../../functions/core/search/registry.js';
import { ProviderFailed, providerError } from '../../../functions/core/search/provider-errors.js';
import { SEARCH_PROVIDERS, type ProviderContext, type SearchProviderName, type SearchQuery } from '../../../functions/core/search/types.js';
import { FAKE_KEYS, PROVIDER_SECRET_DETAIL, badDays, startFakeSearch, type FakeResult, type FakeSearch } from '../../fixtures/fake-search/fake-search.js';

// Each adapter against a fake of its provider's documented API, on 127.0.0.1: ranking, request
// shape, and the bad days (429 with and without Retry-After, quota, 5xx bursts, slow, malformed).

const RESULTS: FakeResult[] = Array.from({ length: 25 }, (_, i) => ({ url: `https://site${i}.example/page?id=${i}`, title: `Result ${i}`, snippet: `About ${i}`, ...(i === 0 ? { published: '2026-11-30T10:00:00Z' } : {}) }));

let fakes: FakeSearch[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});
const start = async (p: SearchProviderName, opts = {}) => {
  const f = await startFakeSearch(p, [...RESULTS], opts);
  fakes.push(f);
  return f;
};

function ctx(f: FakeSearch, query: Partial<SearchQuery> = {}, over: Partial<ProviderContext> = {}) {
  const sleeps: number[] = [];
  const c: ProviderContext = {
    query: { query: 'governed scraping', limit: 10, ...query },
    credentials: f.provider === 'searxng' ? { base_url: f.baseUrl, api_key: FAKE_KEYS.searxng } : { api_key: FAKE_KEYS[f.provider] },
    baseUrl: f.baseUrl,
    fetch: (url, init) => fetch(url, init),
    signal: AbortSignal.timeout(5000),
    sleep: async (ms) => { sleeps.push(ms); },
    ...over,
  };
  return { c, sleeps };
}

const failureOf = async (p: Promise<unknown>) => {
  const e = await p.then(() => null, (x) => x);
  expect(e).toBeInstanceOf(ProviderFailed);
  return (e as ProviderFailed).failure;
};

describe.each(SEARCH_PROVIDERS)('%s adapter', (name) => {
  const adapter = searchProviders[name];

  it('returns the results in the provider\'s order with title, snippet and date, and authenticates as documented', async () => {
    const f = await start(name);
    const { results, requests } = await adapter.search(ctx(f).c);
    expect(results).toHaveLength(10);
    expect(results.map((r) => r.url)).toEqual(RESULTS.slice(0, 10).map((r) => r.url));
    expect(results[0]).toEqual({ url: RESULTS[0]!.url, title: 'Result 0', snippet: 'About 0', published_at: '2026-11-30T10:00:00.000Z' });
    expect(results[1]!.published_at).toBeNull();
    expect(requests).toBe(1);
    expect(f.queries).toEqual(['governed scraping']);
    const sent = f.requests[0]!;
    if (name === 'brave') {
      expect(sent.path).toMatch(/^\/res\/v1\/web\/search\?q=governed\+scraping&count=10/);
      expect(sent.headers['x-subscription-token']).toBe(FAKE_KEYS.brave);
    }
    if (name === 'tavily') expect(JSON.parse(sent.body)).toMatchObject({ query: 'governed scraping', max_results: 10 });
    if (name === 'exa') expect(JSON.parse(sent.body)).toMatchObject({ query: 'governed scraping', numResults: 10, type: 'auto' });
    if (name === 'searxng') {
      expect(sent.path).toMatch(/format=json/);
      expect(sent.headers.authorization).toBe(`Bearer ${FAKE_KEYS.searxng}`);
    }
  });

  it('passes time range, language and domain filters where the API has them', async () => {
    const f = await start(name);
    await adapter.search(ctx(f, { time_range: 'week', language: 'en', country: 'us', include_domains: ['a.example'], exclude_domains: ['b.example'] }).c);
    const sent = f.requests[0]!;
    if (name === 'brave') expect(sent.path).toMatch(/freshness=pw/);
    if (name === 'brave') expect(sent.path).toMatch(/country=us/);
    if (name === 'tavily') expect(JSON.parse(sent.body)).toMatchObject({ time_range: 'week', include_domains: ['a.example'], exclude_domains: ['b.example'] });
    if (name === 'exa') expect(JSON.parse(sent.body)).toMatchObject({ includeDomains: ['a.example'], excludeDomains: ['b.example'], startPublishedDate: expect.any(String) });
    if (name === 'searxng') expect(sent.path).toMatch(/time_range=week.*|language=en/);
  });

  it('a 429 with a long Retry-After comes back at once as a rate failure with that wait', async () => {
    const f = await start(name, { incidents: [badDays.rateLimited(name, 42)] });
    const { c, sleeps } = ctx(f);
    expect(await failureOf(adapter.search(c))).toEqual({ kind: 'rate', retryAfterSeconds: 42 });
    expect(sleeps).toEqual([]);
    expect(f.requests).toHaveLength(1);
  });

  it('a 429 with Retry-After: 1 is waited out once, then the search goes on', async () => {
    const f = await start(name, { incidents: [badDays.rateLimited(name, 1)] });
    const { c, sleeps } = ctx(f);
    const { results } = await adapter.search(c);
    expect(results).toHaveLength(10);
    expect(sleeps).toEqual([1000]);
  });

  it('a 429 without Retry-After is a rate failure with a wait the tenant can use', async () => {
    const f = await start(name, { incidents: [badDays.rateLimitedNoHeader(name)] });
    const failure = await failureOf(adapter.search(ctx(f).c));
    expect(failure).toEqual({ kind: 'rate', retryAfterSeconds: name === 'brave' ? 2 : 30 });
  });

  it('a 5xx burst is retried; a longer outage is a failure', async () => {
    const f = await start(name, { incidents: [badDays.serverErrors(2)] });
    const { c, sleeps } = ctx(f);
    expect((await adapter.search(c)).results).toHaveLength(10);
    expect(sleeps).toHaveLength(2);
    const g = await start(name, { incidents: [badDays.serverErrors(5, 500)] });
    expect(await failureOf(adapter.search(ctx(g).c))).toEqual({ kind: 'unavailable', status: 500 });
    expect(g.requests).toHaveLength(3);
  });

  it('a malformed answer (not JSON, or no result list) is bad_response', async () => {
    const f = await start(name);
    f.malformed = 'html';
    expect(await failureOf(adapter.search(ctx(f).c))).toEqual({ kind: 'bad_response' });
    f.malformed = 'shape';
    expect(await failureOf(adapter.search(ctx(f).c))).toEqual({ kind: 'bad_response' });
  });

  it('a slow answer is cut at the caller\'s deadline', async () => {
    const f = await start(name, { delayMs: 2000 });
    expect(await failureOf(adapter.search(ctx(f, {}, { signal: AbortSignal.timeout(100) }).c))).toEqual({ kind: 'timeout' });
  });

  it('bad credentials are a credentials failure whose message never carries the provider body', async () => {
    if (name === 'searxng') return; // no keys of its own
    const f = await start(name);
    const { c } = ctx(f, {}, { credentials: { api_key: 'wrong-key' } });
    const failure = await failureOf(adapter.search(c));
    expect(failure).toEqual({ kind: 'credentials' });
    const err = providerError(name, failure);
    expect(JSON.stringify(err.toJSON())).not.toContain(PROVIDER_SECRET_DETAIL);
    expect(err.message).not.toContain('wrong-key');
  });
});

describe('quota exhausted, as each provider says it', () => {
  it.each(['brave', 'tavily', 'exa'] as const)('%s', async (name) => {
    const f = await start(name, { incidents: [badDays.quotaExhausted(name)] });
    const failure = await failureOf(searchProviders[name].search(ctx(f).c));
    expect(failure.kind).toBe('quota');
    const err = providerError(name, failure);
    expect(err).toMatchObject({ status: 429, code: 'provider_quota_exhausted' });
    expect(err.headers?.['retry-after']).toMatch(/^\d+$/);
    expect(err.message).not.toContain(PROVIDER_SECRET_DETAIL);
  });
});

describe('searxng', () => {
  it('pages through results (20 a page) up to the limit and explains a refused json format', async () => {
    const f = await start('searxng');
    const { results, requests } = await searchProviders.searxng.search(ctx(f, { limit: 25 }).c);
    expect(results.map((r) => r.url)).toEqual(RESULTS.slice(0, 25).map((r) => r.url));
    expect(requests).toBe(2);
    const g = await start('searxng', { incidents: [{ status: 403, body: 'Forbidden' }] });
    const failure = await failureOf(searchProviders.searxng.search(ctx(g).c));
    expect(failure.kind).toBe('misconfigured');
  });
});
