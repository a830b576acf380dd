import { api } from './pipeline/api.js';
import { storageListQuery } from './schemas/queries.js';
import { listResultFiles } from '../core/storage/result-files.js';

export const handler = api('storage.list', { query: storageListQuery }, async (req) => ({
  body: await listResultFiles(req.deps.table, req.tenant.tenant_id, req.query),
}));
