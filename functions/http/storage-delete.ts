import { api } from './pipeline/api.js';
import { contracts } from './contracts/storage.js';
import { deleteResultFile } from '../core/storage/result-files.js';

export const handler = api(contracts['storage.delete'], async (req) => {
  const f = await deleteResultFile(req.deps.table, req.deps.blobs, req.tenant.tenant_id, req.params.key);
  req.setResource(f.key);
  return { status: 204 };
});
