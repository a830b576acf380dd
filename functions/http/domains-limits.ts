import { api } from './pipeline/api.js';
import { contracts } from './contracts/domains.js';
import { setDomainLimits } from '../core/domains/verified-domains.js';

export const handler = api(contracts['domains.limits'], async (req) => {
  req.setResource(req.params.host);
  return { body: await setDomainLimits(req.deps.table, req.tenant.tenant_id, req.params.host, req.body) };
});
