import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/console/datasets.js'));

export const handler = api(lazyContract('datasets.list', () => import('./contracts/overview.js').then((m) => m.contracts['datasets.list'])), async (req) => {
  const { datasets } = await core();
  return { body: await datasets(req.deps, req.tenant, req.query) };
});
