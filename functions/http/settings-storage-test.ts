import { api, lazyContract, loadOnce } from './pipeline/api.js';
import { badRequest } from '../core/errors.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/sync/settings.js'), import('../core/sync/bucket-sync.js')]));

/**
 * "Save and test": save the body (if any), then upload a verification object with the customer's
 * credentials. A request that cannot be tested (no sync once the body is applied) is refused
 * before anything is saved.
 */
export const handler = api(lazyContract('settings.storage.test', () => import('./contracts/storage-settings.js').then((m) => m.contracts['settings.storage.test'])), async (req) => {
  const [{ getStorageSettings, putStorageSettings }, { testBucketSync }] = await core();
  const cur = await getStorageSettings(req.deps.table, req.tenant.tenant_id);
  const willSync = req.body?.sync !== undefined ? req.body.sync !== null : cur.sync !== null;
  if (!willSync) throw badRequest('Bucket sync is not configured: PUT /dashboard/api/settings/storage with sync first');
  if (req.body) await putStorageSettings(req.deps, req.tenant.tenant_id, req.body, req.now);
  return { body: await testBucketSync(req.deps, req.tenant.tenant_id, req.now) };
});
