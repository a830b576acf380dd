import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/tenancy/tenants.js'));

export const handler = api(lazyContract('settings.target-policy.get', () => import('./contracts/settings.js').then((m) => m.contracts['settings.target-policy.get'])), async (req) => {
  const { requireTenant } = await core();
  return { body: (await requireTenant(req.deps.table, req.tenant.tenant_id)).target_policy };
});
