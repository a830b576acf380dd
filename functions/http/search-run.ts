import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('./egress.js'), import('../core/search/sync-search.js')]));

export const handler = api(lazyContract('search.run', () => import('./contracts/search.js').then((m) => m.contracts['search.run'])), async (req) => {
  const [{ apiGuard }, { searchSync }] = await core();
  req.setResource(req.body.query.slice(0, 200));
  return { body: await searchSync(req.deps, apiGuard(req.deps.config), req.tenant, req.body, req.now) };
});
