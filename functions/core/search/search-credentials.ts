import { keys } from '../table-keys.js';
import { AppError, badRequest } from '../errors.js';
import type { Table } from '../../ports/table.js';
import type { Secrets } from '../../ports/secrets.js';
import type { EgressCheck } from '../governance/egress-check.js';
import { SEARCH_PROVIDERS, type SearchProvider, type SearchProviderName } from './types.js';

// A tenant's search provider credentials, stored like the social sources' (sources/credentials.ts):
// encrypted with the tenant and purpose as context, never returned, listed by field name only.

const KIND = 'SRCH';
const ctx = (tenantId: string, provider: string) => ({ tenant_id: tenantId, purpose: 'search-credentials', provider });

/** What the listing shows of a stored provider: never a value. */
export interface StoredProvider {
  provider: SearchProviderName;
  fields: string[];
  updated_at: string;
}

/** A stored provider as the core reads it: also a self-hosted provider's base URL (configuration, not a secret; never listed). */
export interface ConfiguredProvider extends StoredProvider {
  base_url?: string;
}

/**
 * Validate against the adapter's fields, then store encrypted. SearXNG's `base_url` must be an
 * http(s) URL without credentials whose host passes the egress guard, like any target.
 * @throws AppError 400 invalid_request (fields), 400 target_forbidden (base_url)
 */
export async function putSearchCredentials(
  table: Table, secrets: Secrets, guard: EgressCheck, tenantId: string, provider: SearchProvider, creds: Record<string, string>, now: Date,
): Promise<StoredProvider> {
  const known = new Set(provider.credentialFields.map((f) => f.name));
  const unknown = Object.keys(creds).filter((k) => !known.has(k));
  const missing = provider.credentialFields.filter((f) => f.required && !creds[f.name]).map((f) => f.name);
  if (unknown.length || missing.length)
    throw badRequest(`Credentials for ${provider.name} take: ${provider.credentialFields.map((f) => `${f.name}${f.required ? ' (required)' : ''}`).join(', ')}`, [
      ...unknown.map((k) => ({ path: `body.${k}`, message: 'Unknown credential field' })),
      ...missing.map((k) => ({ path: `body.${k}`, message: 'Required' })),
    ]);
  if (creds.base_url !== undefined) await checkBaseUrl(guard, creds.base_url);
  const ciphertext = await secrets.encrypt(JSON.stringify(creds), ctx(tenantId, provider.name));
  const rec: StoredProvider = { provider: provider.name, fields: Object.keys(creds).sort(), updated_at: now.toISOString() };
  // The base URL is kept beside the ciphertext too: the API checks its host before queueing a search.
  await table.put({ ...keys.record(tenantId, KIND, provider.name), ...rec, ...(creds.base_url ? { base_url: creds.base_url } : {}), ciphertext });
  return rec;
}

/** A self-hosted provider's base URL: http(s), no user:password, a host the egress guard lets through. */
export async function checkBaseUrl(guard: EgressCheck, raw: string): Promise<URL> {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw badRequest('base_url must be an absolute http(s) URL', [{ path: 'body.base_url', message: 'Invalid URL' }]);
  }
  if (!/^https?:$/.test(u.protocol) || u.username || u.password || u.search || u.hash)
    throw badRequest('base_url must be an http(s) URL without credentials, query or fragment', [{ path: 'body.base_url', message: 'Invalid URL' }]);
  try {
    return await guard.checkUrl(u);
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError(400, 'target_unresolvable', `The host ${u.hostname} could not be resolved`);
  }
}

export async function getSearchCredentials(table: Table, secrets: Secrets, tenantId: string, provider: SearchProviderName): Promise<Record<string, string> | undefined> {
  const i = await table.get(keys.record(tenantId, KIND, provider));
  if (!i?.ciphertext) return undefined;
  return JSON.parse(await secrets.decrypt(String(i.ciphertext), ctx(tenantId, provider)));
}

/** The configured providers, in {@link SEARCH_PROVIDERS} order (field names and time only). */
export async function listSearchCredentials(table: Table, tenantId: string): Promise<ConfiguredProvider[]> {
  const p = await table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: keys.recordPrefix(KIND) });
  const byName = new Map(p.items.map((i) => [String(i.provider), { provider: String(i.provider) as SearchProviderName, fields: i.fields as string[], updated_at: String(i.updated_at), ...(typeof i.base_url === 'string' ? { base_url: i.base_url } : {}) }]));
  return SEARCH_PROVIDERS.filter((n) => byName.has(n)).map((n) => byName.get(n)!);
}

export async function deleteSearchCredentials(table: Table, tenantId: string, provider: SearchProviderName): Promise<void> {
  await table.delete(keys.record(tenantId, KIND, provider));
}

/** The provider a search uses: the one asked for, else the tenant's first configured. 422 when none. */
export function chooseProvider(configured: StoredProvider[], asked?: SearchProviderName): SearchProviderName {
  if (asked) {
    if (!configured.some((c) => c.provider === asked))
      throw new AppError(422, 'search_not_configured', `The search provider ${asked} has no credentials; add them with PUT /dashboard/api/search-providers/${asked}`);
    return asked;
  }
  const first = configured[0];
  if (!first) throw new AppError(422, 'search_not_configured', 'No search provider is configured; add one with PUT /dashboard/api/search-providers/{brave|tavily|exa|searxng}');
  return first.provider;
}
