import { api } from './pipeline/api.js';
import { contracts } from './contracts/domains.js';
import { createDomain } from '../core/domains/verified-domains.js';

export const handler = api(contracts['domains.create'], async (req) => {
  req.setResource(req.body.host);
  const { domain, created } = await createDomain(req.deps.table, req.tenant.tenant_id, req.body.host, req.deps.config.egressAllow, req.now);
  return { status: created ? 201 : 200, body: domain };
});
