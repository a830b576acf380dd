import { api, lazyContract, loadOnce } from './pipeline/api.js';
import { forgetCachedKey } from './pipeline/authenticate.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/tenancy/api-keys.js'));

export const handler = api(lazyContract('keys.rotate', () => import('./contracts/session.js').then((m) => m.contracts['keys.rotate'])), async (req) => {
  const { rotateApiKey, publicKey } = await core();
  req.setResource(req.params.key_id);
  const r = await rotateApiKey(req.deps.table, req.params.key_id, req.now, req.body?.grace_seconds ?? 86400, req.tenant.tenant_id, req.principal.scopes, req.principal.expires_at);
  await forgetCachedKey(req.params.key_id); // its new expiry applies here at once
  return { status: 201, body: { ...publicKey(r.key), api_key: r.api_key, old_key_expires_at: r.old_key_expires_at } };
});
