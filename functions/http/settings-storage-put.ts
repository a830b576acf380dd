import { api } from './pipeline/api.js';
import { contracts } from './contracts/storage-settings.js';
import { publicStorageSettings, putStorageSettings } from '../core/sync/settings.js';

export const handler = api(contracts['settings.storage.put'], async (req) => {
  return { body: publicStorageSettings(await putStorageSettings(req.deps, req.tenant.tenant_id, req.body, req.now)) };
});
