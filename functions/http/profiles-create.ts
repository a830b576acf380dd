import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/profiles/browser-profiles.js'));

export const handler = api(lazyContract('profiles.create', () => import('./contracts/profiles.js').then((m) => m.contracts['profiles.create'])), async (req) => {
  const { createProfile } = await core();
  const p = await createProfile(req.deps.table, req.tenant.tenant_id, req.body, req.now);
  req.setResource(p.profile_id);
  return { status: 201, body: p };
});
