import { api } from './pipeline/api.js';
import { runbookIdParams } from './schemas/runs.js';
import { getRunbook } from '../core/runbooks/runbooks.js';

export const handler = api('runbooks.get', { params: runbookIdParams }, async (req) => {
  req.setResource(req.params.id);
  return { body: await getRunbook(req.deps.table, req.tenant.tenant_id, req.params.id) };
});
