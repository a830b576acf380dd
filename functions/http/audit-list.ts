import { api } from './pipeline/api.js';
import { contracts } from './contracts/audit.js';
import { listAudit } from '../core/audit/list-audit.js';

export const handler = api(contracts['audit.list'], async (req) => ({
  body: await listAudit(req.deps.table, { tenantId: req.tenant.tenant_id, ...req.query }),
}));
