import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/profiles/browser-profiles.js'));

export const handler = api(lazyContract('profiles.list', () => import('./contracts/profiles.js').then((m) => m.contracts['profiles.list'])), async (req) => {
  const { listProfiles } = await core();
  return { body: await listProfiles(req.deps.table, req.tenant.tenant_id, req.query) };
});
