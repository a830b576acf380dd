import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/tenancy/api-keys.js'));

export const handler = api(lazyContract('keys.create', () => import('./contracts/session.js').then((m) => m.contracts['keys.create'])), async (req) => {
  const { assertCanGrant, childKeyExpiry, createApiKey, publicKey } = await core();
  const { body: b } = req;
  assertCanGrant(req.principal.scopes, b.scopes);
  const requested = b.expires_in_days ? new Date(req.now.getTime() + b.expires_in_days * 86400_000) : null;
  const expiresAt = childKeyExpiry(requested, req.principal.expires_at);
  const k = await createApiKey(req.deps.table, { tenantId: req.tenant.tenant_id, scopes: b.scopes, name: b.name, expiresAt }, req.now);
  req.setResource(k.key.key_id);
  return { status: 201, body: { ...publicKey(k.key), api_key: k.api_key } };
});
