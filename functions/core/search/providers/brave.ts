import { isoDate, joinBase, providerJson, resultUrl, retryAfterOf, str } from '../provider-http.js';
import { DEFAULT_PROVIDER_RETRY_AFTER_S, ProviderFailed, type ProviderFailure } from '../provider-errors.js';
import type { ProviderResult, SearchProvider } from '../types.js';

/**
 * Brave Search API, web search (https://api-dashboard.search.brave.com/app/documentation/web-search):
 * `GET /res/v1/web/search?q=&count=(≤20)&country=&search_lang=&freshness=pd|pw|pm|py` with the key
 * in `X-Subscription-Token`; results in `web.results[]` as `{ title, url, description, page_age }`.
 * Rate limits come as 429 with `X-RateLimit-Limit/Remaining/Reset` holding two comma-separated
 * windows (per second, per month): a month window at 0 remaining is the plan's quota used up.
 */
const FRESHNESS = { day: 'pd', week: 'pw', month: 'pm', year: 'py' } as const;

/** The two windows of a Brave rate-limit header (`1, 15000`), as numbers. */
const windows = (h: string | null): number[] => (h ?? '').split(',').map((x) => Number(x.trim())).filter((n) => Number.isFinite(n));

function classify(status: number, headers: Headers): ProviderFailure | undefined {
  if (status === 402) return { kind: 'quota' };
  if (status === 422) return { kind: 'credentials' }; // Brave answers an unknown token with 422 SUBSCRIPTION_TOKEN_INVALID
  if (status !== 429) return undefined;
  const remaining = windows(headers.get('x-ratelimit-remaining'));
  const reset = windows(headers.get('x-ratelimit-reset'));
  if (remaining.length >= 2 && remaining[1] === 0) return { kind: 'quota', retryAfterSeconds: reset[1] ? Math.ceil(reset[1]) : undefined };
  return { kind: 'rate', retryAfterSeconds: retryAfterOf(headers) ?? (reset[0] ? Math.max(1, Math.ceil(reset[0])) : DEFAULT_PROVIDER_RETRY_AFTER_S) };
}

/** Brave marks query words in snippets with <strong>; the snippet is plain text. */
const plain = (s: string) => s.replace(/<[^>]*>/g, '').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, '&');

export const braveProvider: SearchProvider = {
  name: 'brave',
  defaultBaseUrl: 'https://api.search.brave.com',
  credentialFields: [{ name: 'api_key', required: true, description: 'Brave Search API subscription token (X-Subscription-Token)' }],
  accessNotes: 'Create a key at https://api-dashboard.search.brave.com (a Search plan); the key is sent as X-Subscription-Token.',
  maxResults: 20,
  async search(ctx) {
    const q = ctx.query;
    const url = joinBase(ctx.baseUrl, '/res/v1/web/search');
    url.searchParams.set('q', q.query);
    url.searchParams.set('count', String(Math.min(q.limit, 20)));
    if (q.country) url.searchParams.set('country', q.country);
    if (q.language) url.searchParams.set('search_lang', q.language.slice(0, 2));
    if (q.time_range) url.searchParams.set('freshness', FRESHNESS[q.time_range]);
    const { body, requests } = await providerJson(ctx, url.href, { method: 'GET', headers: { 'x-subscription-token': ctx.credentials.api_key ?? '' } }, classify);
    const answer = body as { type?: unknown; web?: { results?: unknown } } | null;
    const web = answer?.web;
    // Every web search answer is `type: "search"`; one without `web` had no web results (Brave omits the section then).
    if (answer?.type !== 'search' || (web !== undefined && !Array.isArray(web?.results))) throw new ProviderFailed({ kind: 'bad_response' });
    const out: ProviderResult[] = [];
    for (const r of (web?.results as unknown[] | undefined) ?? []) {
      const o = (r ?? {}) as Record<string, unknown>;
      const u = resultUrl(o.url);
      if (u) out.push({ url: u, title: plain(str(o.title, 500)), snippet: plain(str(o.description)), published_at: isoDate(o.page_age) });
    }
    return { results: out, requests };
  },
};
