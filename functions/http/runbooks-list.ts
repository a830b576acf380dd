import { api } from './pipeline/api.js';
import { contracts } from './contracts/runbooks.js';
import { listRunbooks } from '../core/runbooks/runbooks.js';

export const handler = api(contracts['runbooks.list'], async (req) => ({ body: await listRunbooks(req.deps.table, req.tenant.tenant_id, req.query) }));
