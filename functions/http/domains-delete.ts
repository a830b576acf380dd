import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/domains/verified-domains.js'));

export const handler = api(lazyContract('domains.delete', () => import('./contracts/domains.js').then((m) => m.contracts['domains.delete'])), async (req) => {
  const { deleteDomain } = await core();
  req.setResource(req.params.host);
  await deleteDomain(req.deps.table, req.tenant.tenant_id, req.params.host);
  return { status: 204 };
});
