import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/changes/change-history.js'));

export const handler = api(lazyContract('changes.delete', () => import('./contracts/changes.js').then((m) => m.contracts['changes.delete'])), async (req) => {
  const { dropBaseline } = await core();
  const out = await dropBaseline(req.deps, req.tenant.tenant_id, req.query);
  req.setResource(`${out.tag} ${out.url}`);
  return { body: out };
});
