import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/search/search-credentials.js'));

export const handler = api(lazyContract('search-providers.delete', () => import('./contracts/search-providers.js').then((m) => m.contracts['search-providers.delete'])), async (req) => {
  const { deleteSearchCredentials } = await core();
  req.setResource(req.params.provider);
  await deleteSearchCredentials(req.deps.table, req.tenant.tenant_id, req.params.provider);
  return { status: 204 };
});
