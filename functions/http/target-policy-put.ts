import { api } from './pipeline/api.js';
import { setTargetPolicy, targetPolicySchema } from '../core/tenancy/tenants.js';

// The schema normalises and checks each domain (the same schema reads it back), so what is
// accepted here is exactly what is stored.
export const handler = api('settings.target-policy.put', { body: targetPolicySchema }, async (req) => ({
  body: (await setTargetPolicy(req.deps.table, req.tenant.tenant_id, req.body)).target_policy,
}));
