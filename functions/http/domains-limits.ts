import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/domains/verified-domains.js'));

export const handler = api(lazyContract('domains.limits', () => import('./contracts/domains.js').then((m) => m.contracts['domains.limits'])), async (req) => {
  const { setDomainLimits } = await core();
  req.setResource(req.params.host);
  return { body: await setDomainLimits(req.deps.table, req.tenant.tenant_id, req.params.host, req.body) };
});
