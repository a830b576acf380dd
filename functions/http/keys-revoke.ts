import { api } from './pipeline/api.js';
import { forgetCachedKey } from './pipeline/authenticate.js';
import { contracts } from './contracts/session.js';
import { revokeApiKey } from '../core/tenancy/api-keys.js';

export const handler = api(contracts['keys.revoke'], async (req) => {
  req.setResource(req.params.key_id);
  await revokeApiKey(req.deps.table, req.params.key_id, req.now, req.tenant.tenant_id);
  // This process refuses the key from its next call on; others within AUTH_CACHE_TTL_MS.
  await forgetCachedKey(req.params.key_id);
  return { status: 204 };
});
