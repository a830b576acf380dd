import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/console/social.js'), import('../core/sources/source-status.js')]));

export const handler = api(lazyContract('social.get', () => import('./contracts/overview.js').then((m) => m.contracts['social.get'])), async (req) => {
  const [{ social }, { sourceStatus }] = await core();
  return {
    body: { ...(await social(req.deps, req.tenant, req.now)), ...(await sourceStatus(req.deps, req.tenant.tenant_id, req.deps.config.graphApiVersion, req.now)) },
  };
});
