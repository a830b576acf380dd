import { api } from './pipeline/api.js';
import { contracts } from './contracts/changes.js';
import { listChanges } from '../core/changes/change-history.js';

export const handler = api(contracts['changes.list'], async (req) => ({ body: await listChanges(req.deps.table, req.tenant.tenant_id, req.query) }));
