import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/limits/usage.js'));

export const handler = api(lazyContract('tenant.get', () => import('./contracts/service.js').then((m) => m.contracts['tenant.get'])), async (req) => {
  const { getUsage } = await core();
  req.setResource(req.tenant.tenant_id);
  return { body: { ...req.tenant, usage: await getUsage(req.deps.table, req.tenant.tenant_id, req.now) } };
});
