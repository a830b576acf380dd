import { assertQuotas } from '../limits/usage.js';
import { startTask, awaitTask, type TaskRecord } from '../runs/scrape-task.js';
import { chooseProvider, listSearchCredentials } from './search-credentials.js';
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
export async function searchSync(d: Deps, tenant: Tenant, body: SearchRequest, now: Date, surface?: TaskRecord['surface']): Promise<SearchAnswer> {
  const provider = chooseProvider(await listSearchCredentials(d.table, tenant.tenant_id), body.provider);
  await assertQuotas(d.table, tenant, body.scrape ? ['searches', 'pages'] : ['searches'], now);
  const task = await startTask(d, tenant.tenant_id, 'search', { ...body, provider }, now, surface);
  return (await awaitTask(d, tenant.tenant_id, task.task_id, SEARCH_WAIT_MS)) as SearchAnswer;
}
