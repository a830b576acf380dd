import { api } from './pipeline/api.js';
import { contracts } from './contracts/domains.js';
import { verifyDomain } from '../core/domains/verified-domains.js';
import { guardedDomainProbe } from '../core/domains/verify-probe.js';
import { apiGuard } from './egress.js';

export const handler = api(contracts['domains.verify'], async (req) => {
  req.setResource(req.params.host);
  // DNS TXT only on AWS: local mode and tests never query a real resolver.
  const probe = guardedDomainProbe(apiGuard(req.deps.config), { dns: req.deps.config.mode === 'aws' });
  return { body: await verifyDomain(req.deps.table, req.tenant.tenant_id, req.params.host, probe, req.now) };
});
