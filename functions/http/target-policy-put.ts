import { api } from './pipeline/api.js';
import { setTargetPolicy, targetPolicySchema } from '../core/tenancy/tenants.js';
import { normalizeDomain } from '../core/governance/target-policy.js';

export const handler = api('settings.target-policy.put', { body: targetPolicySchema }, async (req) => {
  const policy = { mode: req.body.mode, domains: [...new Set(req.body.domains.map(normalizeDomain))] };
  return { body: (await setTargetPolicy(req.deps.table, req.tenant.tenant_id, policy)).target_policy };
});
