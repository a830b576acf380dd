import { AppError } from '../errors.js';
import { EgressGuard } from '../governance/egress-guard.js';
import { getSearchCredentials } from './search-credentials.js';
import { searchProviders } from './registry.js';
import { ProviderFailed, providerError } from './provider-errors.js';
import { PROVIDER_TIMEOUT_MS, providerBaseUrl } from './provider-base.js';
import type { SearchProviderName } from './types.js';
import type { Deps } from '../../runtime.js';

/**
 * Check a provider's stored credentials with one one-result search through the egress guard
 * (console "save and test"). The outcome names the kind of failure in our words; the provider's
 * own error text never reaches the answer. Not counted against `monthly_searches`.
 * @throws AppError 422 search_not_configured when the provider has no credentials
 */
export async function testProvider(d: Deps, tenantId: string, name: SearchProviderName, now: Date) {
  const credentials = await getSearchCredentials(d.table, d.secrets, tenantId, name);
  if (!credentials) throw new AppError(422, 'search_not_configured', `The search provider ${name} has no credentials; add them with PUT /dashboard/api/search-providers/${name}`);
  const guard = new EgressGuard({ allow: d.config.egressAllow, userAgent: d.config.userAgent });
  const signal = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
  const checked_at = now.toISOString();
  try {
    const { results } = await searchProviders[name].search({
      query: { query: 'gleaner web scraping', limit: 1 },
      credentials,
      baseUrl: providerBaseUrl(d, name, credentials),
      fetch: (url, init) => guard.fetchResponse(url, { ...init, timeoutMs: PROVIDER_TIMEOUT_MS, maxBytes: 4 * 1024 * 1024 }),
      signal,
      // A test does not wait out a rate limit: it reports it.
      sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 500))),
    });
    return { provider: name, ok: true, results: results.length, error: null, checked_at };
  } catch (e) {
    const err = e instanceof ProviderFailed ? providerError(name, e.failure) : e instanceof AppError ? e : providerError(name, signal.aborted ? { kind: 'timeout' } : { kind: 'unavailable' });
    return { provider: name, ok: false, results: 0, error: { code: err.code, message: err.message }, checked_at };
  } finally {
    await guard.close().catch(() => undefined);
  }
}
