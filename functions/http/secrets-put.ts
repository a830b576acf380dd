import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/runs/tenant-secrets.js'));

export const handler = api(lazyContract('secrets.put', () => import('./contracts/settings.js').then((m) => m.contracts['secrets.put'])), async (req) => {
  const { putTenantSecret } = await core();
  req.setResource(req.params.name);
  await putTenantSecret(req.deps, req.tenant.tenant_id, req.params.name, req.body.value, req.body.domains, req.now);
  return { body: { name: req.params.name, domains: req.body.domains, updated_at: req.now.toISOString() } };
});
