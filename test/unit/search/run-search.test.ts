import { describe, expect, it } from 'vitest';
import { runSearch, type SearchEnv } from '../../../functions/core/search/run-search.js';
import { ProviderFailed } from '../../../functions/core/search/provider-errors.js';
import { AppError } from '../../../functions/core/errors.js';
import { searchRequestSchema } from '../../../functions/core/search/search-request.js';
import type { ProviderResult, SearchProvider } from '../../../functions/core/search/types.js';

const provider = (results: ProviderResult[] | (() => never)): SearchProvider => ({
  name: 'brave', defaultBaseUrl: 'https://api.example', credentialFields: [], accessNotes: '', maxResults: 20,
  search: async () => (typeof results === 'function' ? results() : { results, requests: 1 }),
});
const res = (url: string): ProviderResult => ({ url, title: `t ${url}`, snippet: 's', published_at: null });

function env(p: SearchProvider, over: Partial<SearchEnv> = {}) {
  const scraped: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const e: SearchEnv = {
    provider: p, credentials: { api_key: 'k' }, baseUrl: 'https://api.example', fetch: async () => { throw new Error('no network in unit tests'); },
    checks: { policy: { mode: 'allowlist', domains: ['ok.example'] }, egress: async () => undefined, robots: async () => ({ allowed: true, reason: 'ok' }) },
    providerTimeoutMs: 1000, concurrency: 3,
    scrape: async (url) => {
      scraped.push(url);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      if (url.endsWith('/broken')) throw new AppError(502, 'scrape_failed', 'connection reset');
      return { scrape: { url, final_url: url, status_code: 200, engine_used: 'http', markdown: `# ${url}` }, billed: true };
    },
    ...over,
  };
  return { e, scraped, maxInFlight: () => maxInFlight };
}

const req = (body: Record<string, unknown>) => searchRequestSchema.parse(body);

describe('runSearch', () => {
  it('scrapes only allowed results, each once, at most `concurrency` at a time; a failing page keeps its own error', async () => {
    const urls = ['https://ok.example/1', 'https://deny.example/2', 'https://ok.example/1?utm_medium=x', 'https://ok.example/broken', 'https://ok.example/3', 'https://ok.example/4', 'https://ok.example/5'];
    const { e, scraped, maxInFlight } = env(provider(urls.map(res)));
    const out = await runSearch(e, req({ query: 'q', scrape: { formats: ['markdown'] } }));
    expect(out.data.map((d) => d.url)).toEqual(['https://ok.example/1', 'https://deny.example/2', 'https://ok.example/broken', 'https://ok.example/3', 'https://ok.example/4', 'https://ok.example/5']);
    expect(scraped.sort()).toEqual(['https://ok.example/1', 'https://ok.example/3', 'https://ok.example/4', 'https://ok.example/5', 'https://ok.example/broken']);
    expect(out.data[1]!.policy.decision).toBe('denied');
    expect(out.data[1]!.scrape).toBeUndefined();
    expect(out.data[2]!.scrape).toEqual({ error: { code: 'scrape_failed', message: 'connection reset' } });
    expect(out.data[0]!.scrape).toMatchObject({ status_code: 200, markdown: '# https://ok.example/1' });
    expect(out.usage).toEqual({ searches: 1, pages: 4 });
    expect(maxInFlight()).toBe(3);
  });

  it('without scrape fetches nothing and bills no page', async () => {
    const { e, scraped } = env(provider([res('https://ok.example/1')]));
    const out = await runSearch(e, req({ query: 'q' }));
    expect(scraped).toEqual([]);
    expect(out.data[0]).toEqual({ rank: 1, url: 'https://ok.example/1', title: 't https://ok.example/1', snippet: 's', published_at: null, policy: { decision: 'allowed', reason: expect.any(String) } });
    expect(out.usage).toEqual({ searches: 1, pages: 0 });
  });

  it('a provider 429 becomes provider_rate_limited with Retry-After', async () => {
    const { e } = env(provider(() => { throw new ProviderFailed({ kind: 'rate', retryAfterSeconds: 17 }); }));
    const err = await runSearch(e, req({ query: 'q' })).catch((x) => x);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 429, code: 'provider_rate_limited', headers: { 'retry-after': '17' } });
  });

  it('an unexpected adapter error becomes provider_unavailable without its text', async () => {
    const { e } = env(provider(() => { throw new Error('socket hang up at 10.1.2.3 key=abc'); }));
    const err = await runSearch(e, req({ query: 'q' })).catch((x) => x);
    expect(err).toMatchObject({ status: 502, code: 'provider_unavailable' });
    expect(err.message).not.toMatch(/abc|10\.1\.2\.3/);
  });
});

describe('searchRequestSchema', () => {
  it('applies defaults and rejects what the contract rejects', () => {
    expect(req({ query: ' hello ' })).toMatchObject({ query: 'hello', limit: 10 });
    for (const bad of [{ query: '' }, { query: 'x'.repeat(401) }, { query: 'q', limit: 51 }, { query: 'q', provider: 'google' }, { query: 'q', time_range: 'decade' }, { query: 'q', colour: 1 }, { query: 'q', scrape: { formats: ['changes'] } }, { query: 'q', include_domains: ['not a domain'] }])
      expect(searchRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
