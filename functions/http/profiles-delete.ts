import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/profiles/browser-profiles.js'));

export const handler = api(lazyContract('profiles.delete', () => import('./contracts/profiles.js').then((m) => m.contracts['profiles.delete'])), async (req) => {
  const { deleteProfile } = await core();
  req.setResource(req.params.profile_id);
  await deleteProfile(req.deps.table, req.tenant.tenant_id, req.params.profile_id);
  return { status: 204 };
});
