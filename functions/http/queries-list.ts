import { api } from './pipeline/api.js';
import { queriesListQuery } from './schemas/queries.js';
import { listQueries, publicQuery } from '../core/queries/queries.js';

export const handler = api('queries.list', { query: queriesListQuery }, async (req) => {
  const page = await listQueries(req.deps.table, req.tenant.tenant_id, req.query);
  return { body: { data: page.data.map(publicQuery), next_cursor: page.next_cursor } };
});
