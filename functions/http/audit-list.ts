import { api } from './pipeline/api.js';
import { contracts } from './contracts/audit.js';
import { listAudit } from '../core/audit/list-audit.js';
import { routes } from '../routes.js';

/** Reads: every GET route, and console page views. */
const READS = new Set([...routes.filter((r) => r.method === 'GET').map((r) => r.id), 'console.view']);

export const handler = api(contracts['audit.list'], async (req) => ({
  body: await listAudit(req.deps.table, { tenantId: req.tenant.tenant_id, ...req.query, isRead: (a) => READS.has(a) }),
}));
