import { api } from './pipeline/api.js';
import { contracts } from './contracts/sources.js';
import { deleteSourceCredentials } from '../core/sources/credentials.js';

export const handler = api(contracts['sources.delete'], async (req) => {
  req.setResource(req.params.source);
  await deleteSourceCredentials(req.deps.table, req.tenant.tenant_id, req.params.source);
  return { status: 204 };
});
