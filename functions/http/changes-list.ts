import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/changes/change-history.js'));

export const handler = api(lazyContract('changes.list', () => import('./contracts/changes.js').then((m) => m.contracts['changes.list'])), async (req) => {
  const { listChanges } = await core();
  return { body: await listChanges(req.deps.table, req.tenant.tenant_id, req.query) };
});
