import { api } from './pipeline/api.js';
import { contracts } from './contracts/settings.js';
import { requireTenant } from '../core/tenancy/tenants.js';

export const handler = api(contracts['settings.target-policy.get'], async (req) => ({ body: (await requireTenant(req.deps.table, req.tenant.tenant_id)).target_policy }));
