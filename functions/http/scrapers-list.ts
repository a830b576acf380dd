import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/runs/scraper-catalog.js'));

export const handler = api(lazyContract('scrapers.list', () => import('./contracts/runs.js').then((m) => m.contracts['scrapers.list'])), async (req) => {
  const { listScrapers } = await core();
  return {
    body: { data: await listScrapers(req.deps.table, req.tenant.tenant_id), next_cursor: null },
  };
});
