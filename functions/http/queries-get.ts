import { api } from './pipeline/api.js';
import { contracts } from './contracts/queries.js';
import { getQuery, publicQuery } from '../core/queries/queries.js';
import { readResultFile } from '../core/storage/result-files.js';

export const handler = api(contracts['queries.get'], async (req) => {
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
