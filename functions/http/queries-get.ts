import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/queries/queries.js'), import('../core/storage/result-files.js')]));

export const handler = api(lazyContract('queries.get', () => import('./contracts/queries.js').then((m) => m.contracts['queries.get'])), async (req) => {
  const [{ getQuery, publicQuery }, { readResultFile }] = await core();
  req.setResource(req.params.query_id);
  const q = await getQuery(req.deps.table, req.tenant.tenant_id, req.params.query_id);
  const body: Record<string, unknown> = publicQuery(q);
  if (q.status === 'completed' && q.result_key) {
    const f = await readResultFile(req.deps.table, req.deps.blobs, req.tenant.tenant_id, q.result_key).catch(() => undefined);
    body.results = f ? JSON.parse(Buffer.from(f.body).toString('utf8')) : null;
    body.result_url = `${req.origin}/v1/storage/${encodeURIComponent(q.result_key)}`;
  }
  return { body };
});
