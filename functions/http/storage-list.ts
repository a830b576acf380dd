import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/storage/result-files.js'));

export const handler = api(lazyContract('storage.list', () => import('./contracts/storage.js').then((m) => m.contracts['storage.list'])), async (req) => {
  const { listResultFiles } = await core();
  return {
    body: await listResultFiles(req.deps.table, req.tenant.tenant_id, req.query),
  };
});
