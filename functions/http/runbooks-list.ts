import { api } from './pipeline/api.js';
import { pageQuery } from './schemas/common.js';
import { listRunbooks } from '../core/runbooks/runbooks.js';

export const handler = api('runbooks.list', { query: pageQuery }, async (req) => ({ body: await listRunbooks(req.deps.table, req.tenant.tenant_id, req.query) }));
