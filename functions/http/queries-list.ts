import { api } from './pipeline/api.js';
import { contracts } from './contracts/queries.js';
import { listQueries, publicQuery } from '../core/queries/queries.js';

export const handler = api(contracts['queries.list'], async (req) => {
  const page = await listQueries(req.deps.table, req.tenant.tenant_id, req.query);
  return { body: { data: page.data.map(publicQuery), next_cursor: page.next_cursor } };
});
