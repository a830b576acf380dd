import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/sync/settings.js'));

export const handler = api(lazyContract('settings.storage.get', () => import('./contracts/storage-settings.js').then((m) => m.contracts['settings.storage.get'])), async (req) => {
  const { getStorageSettings, publicStorageSettings } = await core();
  return { body: publicStorageSettings(await getStorageSettings(req.deps.table, req.tenant.tenant_id)) };
});
