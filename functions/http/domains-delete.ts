import { api } from './pipeline/api.js';
import { contracts } from './contracts/domains.js';
import { deleteDomain } from '../core/domains/verified-domains.js';

export const handler = api(contracts['domains.delete'], async (req) => {
  req.setResource(req.params.host);
  await deleteDomain(req.deps.table, req.tenant.tenant_id, req.params.host);
  return { status: 204 };
});
