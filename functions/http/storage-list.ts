import { api } from './pipeline/api.js';
import { contracts } from './contracts/storage.js';
import { listResultFiles } from '../core/storage/result-files.js';

export const handler = api(contracts['storage.list'], async (req) => ({
  body: await listResultFiles(req.deps.table, req.tenant.tenant_id, req.query),
}));
