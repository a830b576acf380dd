import { searchProviders } from './registry.js';
import type { SearchProviderName } from './types.js';
import type { Deps } from '../../runtime.js';

// Apart from search-worker.ts so that the provider test route (search-providers.test) bundles
// neither the engine nor the content options' selector validators.

/** Time a provider may take to answer (the API waits at most 27 s for the whole search). */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** Base URL of a provider's API: the deployment's override, the adapter's default, or (SearXNG) the tenant's. */
export function providerBaseUrl(d: Pick<Deps, 'config'>, name: SearchProviderName, credentials: Record<string, string>): string {
  if (name === 'searxng') return credentials.base_url ?? '';
  return d.config.searchBaseUrls?.[name] ?? searchProviders[name].defaultBaseUrl!;
}
