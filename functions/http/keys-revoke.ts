import { api } from './pipeline/api.js';
import { keyIdParams } from './schemas/console.js';
import { revokeApiKey } from '../core/tenancy/api-keys.js';

export const handler = api('keys.revoke', { params: keyIdParams }, async (req) => {
  req.setResource(req.params.key_id);
  await revokeApiKey(req.deps.table, req.params.key_id, req.now, req.tenant.tenant_id);
  return { status: 204 };
});
