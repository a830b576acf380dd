import { api } from './pipeline/api.js';
import { contracts } from './contracts/service.js';
import { getUsage } from '../core/limits/usage.js';

export const handler = api(contracts['tenant.get'], async (req) => {
  req.setResource(req.tenant.tenant_id);
  return { body: { ...req.tenant, usage: await getUsage(req.deps.table, req.tenant.tenant_id, req.now) } };
});
