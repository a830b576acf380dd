import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/queries/queries.js'));

export const handler = api(lazyContract('queries.create', () => import('./contracts/queries.js').then((m) => m.contracts['queries.create'])), async (req) => {
  const { submitQuery } = await core();
  const q = await submitQuery(req.deps.table, req.deps.queue, req.tenant.tenant_id, req.body, req.now);
  req.setResource(q.query_id);
  return { status: 202, body: { query_id: q.query_id, status: q.status, created_at: q.created_at }, headers: { location: `/v1/queries/${q.query_id}` } };
});
