import { AppError } from '../errors.js';
import type { SearchProviderName } from './types.js';

/**
 * What went wrong with a provider, as the tenant is told it. Messages are written here from the
 * kind of failure alone: a provider's own error body (which may quote the key, an account id or
 * internal detail) never reaches the tenant, a log line or an audit record.
 */
export type ProviderFailure =
  | { kind: 'rate'; retryAfterSeconds: number }
  | { kind: 'quota'; retryAfterSeconds?: number }
  | { kind: 'credentials' }
  | { kind: 'misconfigured'; detail: string }
  | { kind: 'rejected'; status: number }
  | { kind: 'unavailable'; status?: number }
  | { kind: 'bad_response' }
  | { kind: 'timeout' };

/** Retry-After given to the tenant when a provider's 429 names no wait. */
export const DEFAULT_PROVIDER_RETRY_AFTER_S = 30;

/** The error the API answers for a provider failure (no provider body in it). */
export function providerError(provider: SearchProviderName, f: ProviderFailure): AppError {
  switch (f.kind) {
    case 'rate':
      return new AppError(429, 'provider_rate_limited', `${provider} is rate limiting this tenant's API key; retry after ${f.retryAfterSeconds} s`, undefined, { 'retry-after': String(f.retryAfterSeconds) });
    case 'quota':
      return new AppError(429, 'provider_quota_exhausted', `The ${provider} plan's quota for this tenant's API key is used up${f.retryAfterSeconds ? `; it resets in about ${f.retryAfterSeconds} s` : '; raise it with the provider'}`, undefined, { 'retry-after': String(f.retryAfterSeconds ?? 3600) });
    case 'credentials':
      return new AppError(422, 'provider_credentials_rejected', `${provider} rejected the stored credentials; update them with PUT /dashboard/api/search-providers/${provider}`);
    case 'misconfigured':
      return new AppError(422, 'provider_misconfigured', `${provider}: ${f.detail}`);
    case 'rejected':
      return new AppError(422, 'provider_rejected_query', `${provider} refused this query (HTTP ${f.status}); check the query and its filters`);
    case 'unavailable':
      return new AppError(502, 'provider_unavailable', `${provider} is not answering${f.status ? ` (HTTP ${f.status})` : ''}; try again later`);
    case 'bad_response':
      return new AppError(502, 'provider_bad_response', `${provider} answered with something that is not a search result list`);
    case 'timeout':
      return new AppError(504, 'provider_timeout', `${provider} did not answer in time`);
  }
}

/** Thrown by an adapter; the core turns it into {@link providerError}. */
export class ProviderFailed extends Error {
  constructor(readonly failure: ProviderFailure) {
    super(`search provider failed: ${failure.kind}`);
    this.name = 'ProviderFailed';
  }
}
