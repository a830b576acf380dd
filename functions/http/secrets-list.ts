import { api } from './pipeline/api.js';
import { contracts } from './contracts/settings.js';
import { listTenantSecrets } from '../core/runs/tenant-secrets.js';

export const handler = api(contracts['secrets.list'], async (req) => ({ body: { data: await listTenantSecrets(req.deps, req.tenant.tenant_id), next_cursor: null } }));
