import { api } from './pipeline/api.js';
import { contracts } from './contracts/runbooks.js';
import { updateRunbook } from '../core/runbooks/runbooks.js';

export const handler = api(contracts['runbooks.put'], async (req) => {
  req.setResource(req.params.id);
  return { body: await updateRunbook(req.deps.table, req.tenant.tenant_id, req.params.id, req.body, req.now) };
});
