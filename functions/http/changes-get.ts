import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/changes/change-history.js'));

export const handler = api(lazyContract('changes.get', () => import('./contracts/changes.js').then((m) => m.contracts['changes.get'])), async (req) => {
  const { getChange } = await core();
  return { body: await getChange(req.deps, req.tenant.tenant_id, req.params.change_id) };
});
