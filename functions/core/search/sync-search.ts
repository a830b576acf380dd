import { assertQuotas } from '../limits/usage.js';
import { startTask, awaitTask, type TaskRecord } from '../runs/scrape-task.js';
import { chooseProvider, listSearchCredentials } from './search-credentials.js';
import { AppError } from '../errors.js';
import { searchProviders } from './registry.js';
import type { EgressCheck } from '../governance/egress-check.js';
import type { SearchRequest } from './search-request.js';
import type { SearchAnswer } from './run-search.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';

/** The API's wait for a search, under API Gateway's 29 s. */
const SEARCH_WAIT_MS = 27_000;

/**
 * A synchronous search (`POST /v1/search`, MCP tool `search`): provider chosen (422
 * `search_not_configured` when the tenant has none), search quota and (with `scrape`) page quota
 * checked up front, then the search runs in the runs worker (where the engine lives, as a
 * scrape does) and this waits for its answer.
 */
export async function searchSync(d: Deps, guard: EgressCheck, tenant: Tenant, body: SearchRequest, now: Date, surface?: TaskRecord['surface']): Promise<SearchAnswer> {
  const configured = await listSearchCredentials(d.table, tenant.tenant_id);
  const provider = chooseProvider(configured, body.provider);
  // The provider's API host passes the egress guard before anything is queued (a SearXNG whose
  // name now resolves to a private address is refused here, not after a worker's round trip).
  const base = provider === 'searxng' ? configured.find((c) => c.provider === provider)?.base_url : (d.config.searchBaseUrls?.[provider] ?? searchProviders[provider].defaultBaseUrl);
  await checkProviderHost(guard, provider, base);
  await assertQuotas(d.table, tenant, body.scrape ? ['searches', 'pages'] : ['searches'], now);
  const task = await startTask(d, tenant.tenant_id, 'search', { ...body, provider }, now, surface);
  return (await awaitTask(d, tenant.tenant_id, task.task_id, SEARCH_WAIT_MS)) as SearchAnswer;
}

async function checkProviderHost(guard: EgressCheck, provider: string, base: string | null | undefined): Promise<void> {
  if (!base) throw new AppError(422, 'provider_misconfigured', `${provider} has no base URL; store it again with PUT /dashboard/api/search-providers/${provider}`);
  try {
    await guard.checkUrl(base);
  } catch (e) {
    if (e instanceof AppError && e.status < 500) throw new AppError(422, 'provider_misconfigured', `The ${provider} API host ${new URL(base).hostname} is refused by the egress guard (${e.code})`);
    throw new AppError(502, 'provider_unavailable', `The ${provider} API host ${new URL(base).hostname} could not be resolved; try again later`);
  }
}
