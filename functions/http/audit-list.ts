import { api } from './pipeline/api.js';
import { auditListQuery } from './schemas/foundation.js';
import { listAudit } from '../core/audit/audit.js';

export const handler = api('audit.list', { query: auditListQuery }, async (req) => ({
  body: await listAudit(req.deps.table, { tenantId: req.tenant.tenant_id, ...req.query }),
}));
