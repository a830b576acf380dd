import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/service-info.js'));

export const handler = api(lazyContract('info.get', () => import('./contracts/service.js').then((m) => m.contracts['info.get'])), async (req) => {
  const { serviceInfo } = await core();
  return { body: serviceInfo(req.origin, req.deps.config.env) };
});
