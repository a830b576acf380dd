import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/tenancy/tenants.js'));

// The contract's body schema (tenancy's targetPolicySchema) normalises and checks each domain,
// and the same schema reads the setting back, so what is accepted here is exactly what is stored.
export const handler = api(lazyContract('settings.target-policy.put', () => import('./contracts/settings.js').then((m) => m.contracts['settings.target-policy.put'])), async (req) => {
  const { setTargetPolicy } = await core();
  return {
    body: (await setTargetPolicy(req.deps.table, req.tenant.tenant_id, req.body)).target_policy,
  };
});
