import { api } from './pipeline/api.js';
import { contracts } from './contracts/settings.js';
import { deleteTenantSecret } from '../core/runs/tenant-secrets.js';

export const handler = api(contracts['secrets.delete'], async (req) => {
  req.setResource(req.params.name);
  await deleteTenantSecret(req.deps, req.tenant.tenant_id, req.params.name);
  return { status: 204 };
});
