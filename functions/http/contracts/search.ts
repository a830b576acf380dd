import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf } from '../schemas/common.js';
import { searchRequestSchema } from '../../core/search/search-request.js';
import { SEARCH_PROVIDERS } from '../../core/search/types.js';

/** Contracts of search.run and the search-providers group. */

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

export const providerParams = z.strictObject({ provider: z.enum(SEARCH_PROVIDERS, { message: `provider must be one of ${SEARCH_PROVIDERS.join(', ')}` }) });
/** `{ api_key }` for brave, tavily and exa; `{ base_url, api_key? }` for searxng (checked against the adapter's fields). */
export const providerCredentialsBody = z.record(z.string().min(1).max(64), z.string().min(1).max(2048));
const storedSchema = z.object({ provider: z.enum(SEARCH_PROVIDERS), fields: z.array(z.string()), updated_at: z.string(), configured: z.literal(true) });
const providerSchema = z.object({
  provider: z.enum(SEARCH_PROVIDERS),
  configured: z.boolean(),
  fields: z.array(z.string()),
  updated_at: z.string().nullable(),
  credential_fields: z.array(z.object({ name: z.string(), required: z.boolean(), description: z.string() })),
  access: z.string(),
});
const testSchema = z.object({
  provider: z.enum(SEARCH_PROVIDERS),
  ok: z.boolean(),
  results: z.number().int(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  checked_at: z.string(),
});

export const contracts = defineContracts({
  'search.run': {
    summary: 'Search the web through a provider, governed: each result decided by your target policy, robots.txt and the egress guard; allowed ones optionally scraped',
    description: 'Results come in the provider\'s order, de-duplicated by normalised URL. A denied result carries its reason and is never fetched. With `scrape`, allowed results are fetched concurrently and each carries its page or its own error; one failing page never fails the search. Scraped results count as pages; the search counts against `monthly_searches`.',
    body: searchRequestSchema,
    requestExample: { query: 'governed web scraping', limit: 5, scrape: { formats: ['markdown'] } },
    success: { 200: { description: 'Ranked, governed results', schema: searchAnswerSchema } },
    errors: {
      422: 'No search provider is configured (search_not_configured), or the provider rejected the stored credentials or the query',
      429: "The provider is rate limiting the tenant's key (provider_rate_limited) or its plan quota is used up (provider_quota_exhausted), with Retry-After",
      502: 'The provider is not answering or answered something unreadable',
      504: 'The search did not finish in time',
    },
  },
  'search-providers.list': { summary: 'Which search providers have credentials (field names only) and what each needs', success: { 200: { description: 'Providers', schema: listOf(providerSchema) } } },
  'search-providers.put': {
    summary: "Store a search provider's credentials (encrypted, never returned)",
    params: providerParams,
    body: providerCredentialsBody,
    requestExample: { api_key: 'your-provider-key' },
    success: { 200: { description: 'Stored (field names only)', schema: storedSchema } },
  },
  'search-providers.delete': { summary: "Remove a search provider's credentials", params: providerParams, success: { 204: { description: 'Removed' } } },
  'search-providers.test': {
    summary: "Save and test: save (when a body is given), then run a one-result search with the provider's stored credentials",
    params: providerParams,
    body: providerCredentialsBody.optional(),
    bodyOptional: true,
    success: { 200: { description: 'The outcome of the test search (the provider\'s own error text is never shown)', schema: testSchema } },
    errors: { 422: 'The provider has no credentials (search_not_configured)' },
  },
});
