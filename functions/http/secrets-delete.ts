import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/runs/tenant-secrets.js'));

export const handler = api(lazyContract('secrets.delete', () => import('./contracts/settings.js').then((m) => m.contracts['secrets.delete'])), async (req) => {
  const { deleteTenantSecret } = await core();
  req.setResource(req.params.name);
  await deleteTenantSecret(req.deps, req.tenant.tenant_id, req.params.name);
  return { status: 204 };
});
