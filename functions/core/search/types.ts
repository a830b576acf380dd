import type { FetchFn } from '../sources/types.js';

/** The providers Gleaner searches through, in the order a tenant's default is picked from. */
export const SEARCH_PROVIDERS = ['brave', 'tavily', 'exa', 'searxng'] as const;
export type SearchProviderName = (typeof SEARCH_PROVIDERS)[number];

/** What a provider is asked (API.md "Search", without the scrape options). */
export interface SearchQuery {
  query: string;
  /** Results wanted, 1–50. */
  limit: number;
  /** ISO 3166-1 alpha-2, lowercase. */
  country?: string;
  /** ISO 639-1 (`en`, `pt-br` accepted as `pt`). */
  language?: string;
  time_range?: 'day' | 'week' | 'month' | 'year';
  include_domains?: string[];
  exclude_domains?: string[];
}

/** One result as the provider ranked it. */
export interface ProviderResult {
  url: string;
  title: string;
  snippet: string;
  /** ISO 8601, or null when the provider gives none. */
  published_at: string | null;
}

/** What one adapter call gets (the shape of the source connectors' ConnectorContext). */
export interface ProviderContext {
  query: SearchQuery;
  /** Decrypted credentials as stored by PUT /dashboard/api/search-providers/{provider}. */
  credentials: Record<string, string>;
  /** API base URL: GLEANER_SEARCH_<PROVIDER>_BASE_URL, the adapter's default, or (SearXNG) the tenant's. */
  baseUrl: string;
  /** The egress-guarded fetch. */
  fetch: FetchFn;
  signal: AbortSignal;
  /** Sleep that respects the signal (tests shorten waits). */
  sleep: (ms: number) => Promise<void>;
}

/** One adapter per provider, written from the provider's API documentation. */
export interface SearchProvider {
  name: SearchProviderName;
  /** Official API base URL; null for a self-hosted provider (the tenant gives it). */
  defaultBaseUrl: string | null;
  /** Fields PUT /dashboard/api/search-providers/{provider} accepts. */
  credentialFields: { name: string; required: boolean; description: string }[];
  /** Human text: where to get a key and what the plan limits are. */
  accessNotes: string;
  /** Most results one request returns (the adapter asks for min(limit, this)). */
  maxResults: number;
  /** Ranked results, in the provider's order, and how many provider requests it took. */
  search(ctx: ProviderContext): Promise<{ results: ProviderResult[]; requests: number }>;
}
