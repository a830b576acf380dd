import { api } from './pipeline/api.js';
import { contracts } from './contracts/session.js';
import { revokeApiKey } from '../core/tenancy/api-keys.js';

export const handler = api(contracts['keys.revoke'], async (req) => {
  req.setResource(req.params.key_id);
  await revokeApiKey(req.deps.table, req.params.key_id, req.now, req.tenant.tenant_id);
  return { status: 204 };
});
