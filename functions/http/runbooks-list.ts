import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/runbooks/runbooks.js'));

export const handler = api(lazyContract('runbooks.list', () => import('./contracts/runbooks.js').then((m) => m.contracts['runbooks.list'])), async (req) => {
  const { listRunbooks } = await core();
  return { body: await listRunbooks(req.deps.table, req.tenant.tenant_id, req.query) };
});
