import { api } from './pipeline/api.js';
import { contracts } from './contracts/session.js';
import { assertCanGrant, childKeyExpiry, createApiKey, publicKey } from '../core/tenancy/api-keys.js';

export const handler = api(contracts['keys.create'], async (req) => {
  const { body: b } = req;
  assertCanGrant(req.principal.scopes, b.scopes);
  const requested = b.expires_in_days ? new Date(req.now.getTime() + b.expires_in_days * 86400_000) : null;
  const expiresAt = childKeyExpiry(requested, req.principal.expires_at);
  const k = await createApiKey(req.deps.table, { tenantId: req.tenant.tenant_id, scopes: b.scopes, name: b.name, expiresAt }, req.now);
  req.setResource(k.key.key_id);
  return { status: 201, body: { ...publicKey(k.key), api_key: k.api_key } };
});
