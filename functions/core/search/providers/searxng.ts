import { isoDate, joinBase, providerJson, resultUrl, str } from '../provider-http.js';
import { ProviderFailed, type ProviderFailure } from '../provider-errors.js';
import type { ProviderResult, SearchProvider } from '../types.js';

/**
 * A self-hosted SearXNG (https://docs.searxng.org/dev/search_api.html): `GET /search?q=&format=json
 * &pageno=&language=&time_range=` under the tenant's base URL; results in `results[]` as `{ url,
 * title, content, publishedDate? }`, about 20 a page. The instance must serve the json format
 * (settings.yml `search.formats`); otherwise it answers 403. An `api_key`, when given, is sent as a
 * Bearer token for a proxy in front of the instance (SearXNG itself has no keys).
 */
const MAX_PAGES = 3;

function classify(status: number): ProviderFailure | undefined {
  if (status === 403) return { kind: 'misconfigured', detail: 'the instance refused format=json (enable json under search.formats in its settings.yml) or the proxy in front of it refused the api_key' };
  return undefined;
}

export const searxngProvider: SearchProvider = {
  name: 'searxng',
  defaultBaseUrl: null,
  credentialFields: [
    { name: 'base_url', required: true, description: 'Base URL of your SearXNG instance, e.g. https://search.example.org' },
    { name: 'api_key', required: false, description: 'Sent as a Bearer token, for a proxy in front of the instance' },
  ],
  accessNotes: 'Your own SearXNG instance, with the json format enabled; its host must be a public address (the egress guard applies).',
  maxResults: 50,
  async search(ctx) {
    const q = ctx.query;
    const out: ProviderResult[] = [];
    const seen = new Set<string>();
    let requests = 0;
    for (let page = 1; page <= MAX_PAGES && out.length < q.limit; page++) {
      const url = joinBase(ctx.baseUrl, '/search');
      url.searchParams.set('q', q.query);
      url.searchParams.set('format', 'json');
      url.searchParams.set('pageno', String(page));
      if (q.language) url.searchParams.set('language', q.language);
      if (q.time_range) url.searchParams.set('time_range', q.time_range);
      const headers: Record<string, string> = ctx.credentials.api_key ? { authorization: `Bearer ${ctx.credentials.api_key}` } : {};
      const res = await providerJson(ctx, url.href, { method: 'GET', headers }, classify);
      requests += res.requests;
      const results = (res.body as { results?: unknown } | null)?.results;
      if (!Array.isArray(results)) throw new ProviderFailed({ kind: 'bad_response' });
      let added = 0;
      for (const r of results) {
        const o = (r ?? {}) as Record<string, unknown>;
        const u = resultUrl(o.url);
        if (!u || seen.has(u)) continue;
        seen.add(u);
        added++;
        out.push({ url: u, title: str(o.title, 500), snippet: str(o.content), published_at: isoDate(o.publishedDate) });
      }
      if (added === 0) break;
    }
    return { results: out.slice(0, q.limit), requests };
  },
};
