import { isoDate, joinBase, providerJson, resultUrl, str } from '../provider-http.js';
import { ProviderFailed, type ProviderFailure } from '../provider-errors.js';
import type { ProviderResult, SearchProvider } from '../types.js';

/**
 * Tavily Search (https://docs.tavily.com/documentation/api-reference/endpoint/search):
 * `POST /search` with `Authorization: Bearer tvly-…` and a JSON body `{ query, max_results (≤20),
 * time_range, include_domains, exclude_domains }`; results in `results[]` as `{ title, url,
 * content, score, published_date? }`. Errors: 401 bad key, 429 rate limit, 432 plan limit and 433
 * pay-as-you-go limit (the credits are used up).
 */
function classify(status: number): ProviderFailure | undefined {
  if (status === 432 || status === 433) return { kind: 'quota' };
  return undefined;
}

export const tavilyProvider: SearchProvider = {
  name: 'tavily',
  defaultBaseUrl: 'https://api.tavily.com',
  credentialFields: [{ name: 'api_key', required: true, description: 'Tavily API key (tvly-…)' }],
  accessNotes: 'Create a key at https://app.tavily.com; every search spends API credits of that account.',
  maxResults: 20,
  async search(ctx) {
    const q = ctx.query;
    const body: Record<string, unknown> = { query: q.query, max_results: Math.min(q.limit, 20), search_depth: 'basic' };
    if (q.time_range) body.time_range = q.time_range;
    if (q.include_domains?.length) body.include_domains = q.include_domains;
    if (q.exclude_domains?.length) body.exclude_domains = q.exclude_domains;
    const res = await providerJson(ctx, joinBase(ctx.baseUrl, '/search').href, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.credentials.api_key ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }, classify);
    const results = (res.body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) throw new ProviderFailed({ kind: 'bad_response' });
    const out: ProviderResult[] = [];
    for (const r of results) {
      const o = (r ?? {}) as Record<string, unknown>;
      const u = resultUrl(o.url);
      if (u) out.push({ url: u, title: str(o.title, 500), snippet: str(o.content), published_at: isoDate(o.published_date) });
    }
    return { results: out, requests: res.requests };
  },
};
