import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/queries/queries.js'));

export const handler = api(lazyContract('queries.list', () => import('./contracts/queries.js').then((m) => m.contracts['queries.list'])), async (req) => {
  const { listQueries, publicQuery } = await core();
  const page = await listQueries(req.deps.table, req.tenant.tenant_id, req.query);
  return { body: { data: page.data.map(publicQuery), next_cursor: page.next_cursor } };
});
