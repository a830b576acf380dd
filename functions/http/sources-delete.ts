import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/sources/credentials.js'));

export const handler = api(lazyContract('sources.delete', () => import('./contracts/sources.js').then((m) => m.contracts['sources.delete'])), async (req) => {
  const { deleteSourceCredentials } = await core();
  req.setResource(req.params.source);
  await deleteSourceCredentials(req.deps.table, req.tenant.tenant_id, req.params.source);
  return { status: 204 };
});
