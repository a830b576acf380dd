import { api } from './pipeline/api.js';
import { sourceParams } from './schemas/queries.js';
import { deleteSourceCredentials } from '../core/sources/credentials.js';

export const handler = api('sources.delete', { params: sourceParams }, async (req) => {
  req.setResource(req.params.source);
  await deleteSourceCredentials(req.deps.table, req.tenant.tenant_id, req.params.source);
  return { status: 204 };
});
