import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/domains/verified-domains.js'), import('../core/domains/verify-probe.js'), import('./egress.js')]));

export const handler = api(lazyContract('domains.verify', () => import('./contracts/domains.js').then((m) => m.contracts['domains.verify'])), async (req) => {
  const [{ verifyDomain }, { guardedDomainProbe }, { apiGuard }] = await core();
  req.setResource(req.params.host);
  // DNS TXT only on AWS: local mode and tests never query a real resolver.
  const probe = guardedDomainProbe(apiGuard(req.deps.config), { dns: req.deps.config.mode === 'aws' });
  return { body: await verifyDomain(req.deps.table, req.tenant.tenant_id, req.params.host, probe, req.now) };
});
