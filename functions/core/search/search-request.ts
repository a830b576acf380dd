import * as z from 'zod';
import { contentOptionsShape } from '../content/content-options.js';
import { maxAgeField } from '../freshness/max-age.js';
import { policyDomainSchema } from '../governance/target-policy.js';
import { SEARCH_PROVIDERS } from './types.js';

// The request contract of a search (POST /v1/search, MCP `search`, the web-search scraper's input).
// Only zod here: validating a search never bundles the engine or a provider adapter.

/** Formats a search result can be scraped in; `changes` only in the web-search scraper (URL comparison). */
export const SEARCH_SCRAPE_FORMATS = ['markdown', 'html', 'text', 'links', 'metadata', 'screenshot'] as const;

const scrapeShape = {
  formats: z.array(z.enum(SEARCH_SCRAPE_FORMATS)).min(1).max(SEARCH_SCRAPE_FORMATS.length).optional(),
  engine: z.enum(['auto', 'http', 'browser']).default('auto'),
  ...contentOptionsShape,
  max_age: maxAgeField,
  timeout_ms: z.number().int().min(1000).max(25_000).default(15_000).describe('per result page (default 15000)'),
};

/** `scrape`: applied to every allowed result (the same formats and content options as POST /v1/scrape). */
export const searchScrapeSchema = z.strictObject(scrapeShape);

const domains = z.array(policyDomainSchema).max(50);

/** The fields of a search, shared by the API body, the MCP tool and the web-search input. */
export const searchRequestShape = {
  query: z.string().trim().min(1, 'query may not be empty').max(400),
  limit: z.number().int().min(1).max(50).default(10),
  provider: z.enum(SEARCH_PROVIDERS).optional().describe("default: the tenant's first configured provider (brave, tavily, exa, searxng)"),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'country is an ISO 3166-1 alpha-2 code such as us').transform((c) => c.toLowerCase()).optional(),
  language: z.string().regex(/^[A-Za-z]{2}(-[A-Za-z]{2})?$/, 'language is an ISO 639-1 code such as en').transform((l) => l.toLowerCase()).optional(),
  time_range: z.enum(['day', 'week', 'month', 'year']).optional(),
  include_domains: domains.optional(),
  exclude_domains: domains.optional(),
  scrape: searchScrapeSchema.optional(),
};

/** POST /v1/search body (API.md "Search"). */
export const searchRequestSchema = z.strictObject(searchRequestShape);
export type SearchRequest = z.infer<typeof searchRequestSchema>;
export type SearchScrape = z.infer<typeof searchScrapeSchema>;

/**
 * The web-search scraper's input: the same fields, plus `formats: ["changes"]` to compare the
 * results by URL with the previous run under the same `change_options.tag` (new results are `new`).
 */
export const webSearchInputSchema = z.strictObject({
  ...searchRequestShape,
  formats: z.array(z.literal('changes')).min(1).max(1).optional().describe('["changes"]: compare the results by URL with the previous run under the same tag; new results are reported as new'),
  change_options: z.strictObject({ tag: z.string().min(1).max(64).optional() }).optional(),
});
export type WebSearchInput = z.infer<typeof webSearchInputSchema>;
