import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/runbooks/runbooks.js'));

export const handler = api(lazyContract('runbooks.delete', () => import('./contracts/runbooks.js').then((m) => m.contracts['runbooks.delete'])), async (req) => {
  const { deleteRunbook } = await core();
  req.setResource(req.params.id);
  await deleteRunbook(req.deps.table, req.tenant.tenant_id, req.params.id);
  return { status: 204 };
});
