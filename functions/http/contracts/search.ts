import * as z from 'zod';
import { defineContracts } from './contract.js';
import { searchRequestSchema } from '../../core/search/search-request.js';
import { SEARCH_PROVIDERS } from '../../core/search/types.js';

/** Contract of search.run (the search-providers group is in search-providers.ts: no selector validators in its bundles). */

const scrapeError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
/** The page as POST /v1/scrape answers it (the formats asked for). */
const scrapedPage = z.looseObject({ url: z.string(), final_url: z.string(), status_code: z.number().int(), engine_used: z.string().nullable() });
const resultSchema = z.object({
  rank: z.number().int().min(1),
  url: z.string(),
  title: z.string(),
  snippet: z.string(),
  published_at: z.string().nullable(),
  policy: z.object({ decision: z.enum(['allowed', 'denied']), reason: z.string() }),
  scrape: z.union([scrapeError, scrapedPage]).optional(),
});
export const searchAnswerSchema = z.object({
  query: z.string(),
  provider: z.enum(SEARCH_PROVIDERS),
  data: z.array(resultSchema),
  usage: z.object({ searches: z.number().int(), pages: z.number().int() }),
});

export const contracts = defineContracts({
  'search.run': {
    summary: 'Search the web through a provider, governed: each result decided by your target policy, robots.txt and the egress guard; allowed ones optionally scraped',
    description: 'Results come in the provider\'s order, de-duplicated by normalised URL. A denied result carries its reason and is never fetched. With `scrape`, allowed results are fetched concurrently and each carries its page or its own error; one failing page never fails the search. Scraped results count as pages; the search counts against `monthly_searches`.',
    body: searchRequestSchema,
    requestExample: { query: 'governed web scraping', limit: 5, scrape: { formats: ['markdown'] } },
    success: { 200: { description: 'Ranked, governed results', schema: searchAnswerSchema } },
    errors: {
      422: 'No search provider is configured (search_not_configured); the provider rejected the stored credentials or the query; or its API host is refused by the egress guard (provider_misconfigured)',
      429: "The provider is rate limiting the tenant's key (provider_rate_limited) or its plan quota is used up (provider_quota_exhausted), with Retry-After",
      502: 'The provider is not answering or answered something unreadable',
      504: 'The search did not finish in time',
    },
  },
});
