import { isoDate, joinBase, providerJson, resultUrl, str } from '../provider-http.js';
import { ProviderFailed, type ProviderFailure } from '../provider-errors.js';
import type { ProviderResult, SearchProvider } from '../types.js';

/**
 * Exa search (https://docs.exa.ai/reference/search): `POST /search` with the key in `x-api-key`
 * and a JSON body `{ query, numResults, type: "auto", includeDomains, excludeDomains,
 * startPublishedDate, contents: { highlights } }`; results in `results[]` as `{ title, url,
 * publishedDate, author, highlights: [string] }`. 402 means the account's credits are used up.
 */
const RANGE_DAYS = { day: 1, week: 7, month: 31, year: 366 } as const;

function classify(status: number): ProviderFailure | undefined {
  if (status === 402) return { kind: 'quota' };
  return undefined;
}

export const exaProvider: SearchProvider = {
  name: 'exa',
  defaultBaseUrl: 'https://api.exa.ai',
  credentialFields: [{ name: 'api_key', required: true, description: 'Exa API key (sent as x-api-key)' }],
  accessNotes: 'Create a key at https://dashboard.exa.ai; searches and highlights are billed to that account.',
  maxResults: 50,
  async search(ctx) {
    const q = ctx.query;
    const body: Record<string, unknown> = { query: q.query, numResults: Math.min(q.limit, 50), type: 'auto', contents: { highlights: { maxCharacters: 400 } } };
    if (q.include_domains?.length) body.includeDomains = q.include_domains;
    if (q.exclude_domains?.length) body.excludeDomains = q.exclude_domains;
    if (q.time_range) body.startPublishedDate = new Date(Date.now() - RANGE_DAYS[q.time_range] * 86_400_000).toISOString();
    if (q.country) body.userLocation = q.country;
    const res = await providerJson(ctx, joinBase(ctx.baseUrl, '/search').href, {
      method: 'POST',
      headers: { 'x-api-key': ctx.credentials.api_key ?? '', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }, classify);
    const results = (res.body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) throw new ProviderFailed({ kind: 'bad_response' });
    const out: ProviderResult[] = [];
    for (const r of results) {
      const o = (r ?? {}) as Record<string, unknown>;
      const u = resultUrl(o.url);
      const highlights = Array.isArray(o.highlights) ? o.highlights.filter((h): h is string => typeof h === 'string') : [];
      if (u) out.push({ url: u, title: str(o.title, 500), snippet: str(highlights.join(' … ') || o.summary || o.text, 1000), published_at: isoDate(o.publishedDate) });
    }
    return { results: out, requests: res.requests };
  },
};
