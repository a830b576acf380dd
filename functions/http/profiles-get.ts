import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/profiles/browser-profiles.js'));

export const handler = api(lazyContract('profiles.get', () => import('./contracts/profiles.js').then((m) => m.contracts['profiles.get'])), async (req) => {
  const { getProfile } = await core();
  req.setResource(req.params.profile_id);
  return { body: await getProfile(req.deps.table, req.tenant.tenant_id, req.params.profile_id) };
});
