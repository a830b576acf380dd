import { api } from './pipeline/api.js';
import { requireTenant } from '../core/tenancy/tenants.js';

export const handler = api('settings.target-policy.get', {}, async (req) => ({ body: (await requireTenant(req.deps.table, req.tenant.tenant_id)).target_policy }));
