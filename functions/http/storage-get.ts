import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/storage/result-files.js'));

/** The raw JSON result object, byte for byte as stored. */
export const handler = api(lazyContract('storage.get', () => import('./contracts/storage.js').then((m) => m.contracts['storage.get'])), async (req) => {
  const { readResultFile } = await core();
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
