import { api } from './pipeline/api.js';
import { listTenantSecrets } from '../core/runs/tenant-secrets.js';

export const handler = api('secrets.list', {}, async (req) => ({ body: { data: await listTenantSecrets(req.deps, req.tenant.tenant_id), next_cursor: null } }));
