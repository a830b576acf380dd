import { api, lazyContract, loadOnce } from './pipeline/api.js';
import { routes } from '../routes.js';

/** Reads: every GET route, and console page views. */
const READS = new Set([...routes.filter((r) => r.method === 'GET').map((r) => r.id), 'console.view']);

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/audit/list-audit.js'));

export const handler = api(lazyContract('audit.list', () => import('./contracts/audit.js').then((m) => m.contracts['audit.list'])), async (req) => {
  const { listAudit } = await core();
  // Records this process has answered for but not yet written (the local journal's): listed too.
  await req.deps.audit.flush();
  return {
    body: await listAudit(req.deps.table, { tenantId: req.tenant.tenant_id, ...req.query, isRead: (a) => READS.has(a) }),
  };
});
