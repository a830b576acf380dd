import { api } from './pipeline/api.js';
import { contracts } from './contracts/settings.js';
import { putTenantSecret } from '../core/runs/tenant-secrets.js';

export const handler = api(contracts['secrets.put'], async (req) => {
  req.setResource(req.params.name);
  await putTenantSecret(req.deps, req.tenant.tenant_id, req.params.name, req.body.value, req.body.domains, req.now);
  return { body: { name: req.params.name, domains: req.body.domains, updated_at: req.now.toISOString() } };
});
