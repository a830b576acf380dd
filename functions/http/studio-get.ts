import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/console/studio.js'));

export const handler = api(lazyContract('studio.get', () => import('./contracts/overview.js').then((m) => m.contracts['studio.get'])), async (req) => {
  const { studio } = await core();
  return { body: await studio(req.deps, req.tenant) };
});
