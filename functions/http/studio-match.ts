import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/studio/count-selector.js'));

export const handler = api(lazyContract('studio.match', () => import('./contracts/studio.js').then((m) => m.contracts['studio.match'])), async (req) => {
  const { matchSelectorBudgeted } = await core();
  return { body: await matchSelectorBudgeted(req.body.html, req.body.selector, req.tenant.tenant_id) };
});
