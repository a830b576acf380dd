import { api } from './pipeline/api.js';
import { secretParams } from './schemas/runs.js';
import { deleteTenantSecret } from '../core/runs/tenant-secrets.js';

export const handler = api('secrets.delete', { params: secretParams }, async (req) => {
  req.setResource(req.params.name);
  await deleteTenantSecret(req.deps, req.tenant.tenant_id, req.params.name);
  return { status: 204 };
});
