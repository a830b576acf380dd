import { api } from './pipeline/api.js';
import { contracts } from './contracts/runbooks.js';
import { deleteRunbook } from '../core/runbooks/runbooks.js';

export const handler = api(contracts['runbooks.delete'], async (req) => {
  req.setResource(req.params.id);
  await deleteRunbook(req.deps.table, req.tenant.tenant_id, req.params.id);
  return { status: 204 };
});
