import { api } from './pipeline/api.js';
import { runbookIdParams } from './schemas/runs.js';
import { runbookBodySchema, updateRunbook } from '../core/runbooks/runbooks.js';

export const handler = api('runbooks.put', { params: runbookIdParams, body: runbookBodySchema }, async (req) => {
  req.setResource(req.params.id);
  return { body: await updateRunbook(req.deps.table, req.tenant.tenant_id, req.params.id, req.body, req.now) };
});
