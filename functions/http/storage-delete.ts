import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/storage/result-files.js'));

export const handler = api(lazyContract('storage.delete', () => import('./contracts/storage.js').then((m) => m.contracts['storage.delete'])), async (req) => {
  const { deleteResultFile } = await core();
  const f = await deleteResultFile(req.deps.table, req.deps.blobs, req.tenant.tenant_id, req.params.key);
  req.setResource(f.key);
  return { status: 204 };
});
