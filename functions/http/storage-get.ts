import { api } from './pipeline/api.js';
import { contracts } from './contracts/storage.js';
import { readResultFile } from '../core/storage/result-files.js';

/** The raw JSON result object, byte for byte as stored. */
export const handler = api(contracts['storage.get'], async (req) => {
  const { file, body } = await readResultFile(req.deps.table, req.deps.blobs, req.tenant.tenant_id, req.params.key);
  req.setResource(file.key);
  const download = req.query.download === '1' || req.query.download === 'true';
  return {
    raw: Buffer.from(body).toString('utf8'),
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(download ? { 'content-disposition': `attachment; filename="${file.key.endsWith('.json') ? file.key : `${file.key}.json`}"` } : {}),
    },
  };
});
