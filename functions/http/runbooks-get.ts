import { api } from './pipeline/api.js';
import { contracts } from './contracts/runbooks.js';
import { getRunbook } from '../core/runbooks/runbooks.js';

export const handler = api(contracts['runbooks.get'], async (req) => {
  req.setResource(req.params.id);
  return { body: await getRunbook(req.deps.table, req.tenant.tenant_id, req.params.id) };
});
