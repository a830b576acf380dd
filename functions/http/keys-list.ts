import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/tenancy/api-keys.js'));

export const handler = api(lazyContract('keys.list', () => import('./contracts/session.js').then((m) => m.contracts['keys.list'])), async (req) => {
  const { listApiKeys, publicKey } = await core();
  return {
    body: { data: (await listApiKeys(req.deps.table, req.tenant.tenant_id)).map(publicKey), next_cursor: null },
  };
});
