import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/console/monitoring.js'), import('../core/sources/source-status.js')]));

export const handler = api(lazyContract('monitoring.get', () => import('./contracts/overview.js').then((m) => m.contracts['monitoring.get'])), async (req) => {
  const [{ monitoring }, { platformWarnings }] = await core();
  return {
    body: { ...(await monitoring(req.deps, req.tenant, req.now, req.query.range)), platform_warnings: platformWarnings(req.deps.config.graphApiVersion, req.now) },
  };
});
