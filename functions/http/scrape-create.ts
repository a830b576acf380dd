import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('./egress.js'), import('../core/runs/sync-scrape.js'), import('./api-robots.js')]));

export const handler = api(lazyContract('scrape.create', () => import('./contracts/scrape.js').then((m) => m.contracts['scrape.create'])), async (req) => {
  const [{ apiGuard }, { scrapeSync }, { apiRobots }] = await core();
  return {
    body: await scrapeSync(req.deps, apiGuard(req.deps.config), req.tenant, req.body, req.now, undefined, req.principal.scopes, apiRobots(req.deps.config)),
  };
});
