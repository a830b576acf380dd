import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/runs/tenant-secrets.js'));

export const handler = api(lazyContract('secrets.list', () => import('./contracts/settings.js').then((m) => m.contracts['secrets.list'])), async (req) => {
  const { listTenantSecrets } = await core();
  return { body: { data: await listTenantSecrets(req.deps, req.tenant.tenant_id), next_cursor: null } };
});
