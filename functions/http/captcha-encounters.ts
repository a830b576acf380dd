import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/captcha/captcha.js'));

export const handler = api(lazyContract('captcha.encounters', () => import('./contracts/settings.js').then((m) => m.contracts['captcha.encounters'])), async (req) => {
  const { listEncounters } = await core();
  return { body: await listEncounters(req.deps.table, req.tenant.tenant_id, req.query) };
});
