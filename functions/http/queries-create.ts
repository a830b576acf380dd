import { api } from './pipeline/api.js';
import { contracts } from './contracts/queries.js';
import { submitQuery } from '../core/queries/queries.js';

export const handler = api(contracts['queries.create'], async (req) => {
  const q = await submitQuery(req.deps.table, req.deps.queue, req.tenant.tenant_id, req.body, req.now);
  req.setResource(q.query_id);
  return { status: 202, body: { query_id: q.query_id, status: q.status, created_at: q.created_at }, headers: { location: `/v1/queries/${q.query_id}` } };
});
