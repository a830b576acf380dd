import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/profiles/browser-profiles.js'));

export const handler = api(lazyContract('profiles.put', () => import('./contracts/profiles.js').then((m) => m.contracts['profiles.put'])), async (req) => {
  const { updateProfile } = await core();
  req.setResource(req.params.profile_id);
  return { body: await updateProfile(req.deps.table, req.tenant.tenant_id, req.params.profile_id, req.body, req.now) };
});
