import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/sync/settings.js'));

export const handler = api(lazyContract('settings.storage.put', () => import('./contracts/storage-settings.js').then((m) => m.contracts['settings.storage.put'])), async (req) => {
  const { publicStorageSettings, putStorageSettings } = await core();
  return { body: publicStorageSettings(await putStorageSettings(req.deps, req.tenant.tenant_id, req.body, req.now)) };
});
