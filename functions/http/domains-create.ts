import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/domains/verified-domains.js'));

export const handler = api(lazyContract('domains.create', () => import('./contracts/domains.js').then((m) => m.contracts['domains.create'])), async (req) => {
  const { createDomain } = await core();
  req.setResource(req.body.host);
  const { domain, created } = await createDomain(req.deps.table, req.tenant.tenant_id, req.body.host, req.deps.config.egressAllow, req.now);
  return { status: created ? 201 : 200, body: domain };
});
