import { api } from './pipeline/api.js';
import { contracts } from './contracts/settings.js';
import { setTargetPolicy } from '../core/tenancy/tenants.js';

// The contract's body schema (tenancy's targetPolicySchema) normalises and checks each domain,
// and the same schema reads the setting back, so what is accepted here is exactly what is stored.
export const handler = api(contracts['settings.target-policy.put'], async (req) => ({
  body: (await setTargetPolicy(req.deps.table, req.tenant.tenant_id, req.body)).target_policy,
}));
