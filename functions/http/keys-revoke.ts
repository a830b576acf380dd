import { api, lazyContract, loadOnce } from './pipeline/api.js';
import { forgetCachedKey } from './pipeline/authenticate.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/tenancy/api-keys.js'));

export const handler = api(lazyContract('keys.revoke', () => import('./contracts/session.js').then((m) => m.contracts['keys.revoke'])), async (req) => {
  const { revokeApiKey } = await core();
  req.setResource(req.params.key_id);
  await revokeApiKey(req.deps.table, req.params.key_id, req.now, req.tenant.tenant_id);
  // This process refuses the key from its next call on; others within AUTH_CACHE_TTL_MS.
  await forgetCachedKey(req.params.key_id);
  return { status: 204 };
});
