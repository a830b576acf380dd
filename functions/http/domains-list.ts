import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/domains/verified-domains.js'));

export const handler = api(lazyContract('domains.list', () => import('./contracts/domains.js').then((m) => m.contracts['domains.list'])), async (req) => {
  const { listDomains } = await core();
  return { body: { data: await listDomains(req.deps.table, req.tenant.tenant_id), next_cursor: null } };
});
