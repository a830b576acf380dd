import { api } from './pipeline/api.js';
import { contracts } from './contracts/settings.js';
import { setTargetPolicy } from '../core/tenancy/tenants.js';
import { normalizeDomain } from '../core/governance/index.js';

export const handler = api(contracts['settings.target-policy.put'], async (req) => {
  const policy = { mode: req.body.mode, domains: [...new Set(req.body.domains.map(normalizeDomain))] };
  return { body: (await setTargetPolicy(req.deps.table, req.tenant.tenant_id, policy)).target_policy };
});
