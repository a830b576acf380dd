import { api } from './pipeline/api.js';
import { publicStorageSettings, putStorageSettings, storageSettingsPutSchema } from '../core/sync/settings.js';

export const handler = api('settings.storage.put', { body: storageSettingsPutSchema }, async (req) => {
  return { body: publicStorageSettings(await putStorageSettings(req.deps, req.tenant.tenant_id, req.body, req.now)) };
});
