import { api } from './pipeline/api.js';
import { contracts } from './contracts/storage-settings.js';
import { getStorageSettings, publicStorageSettings } from '../core/sync/settings.js';

export const handler = api(contracts['settings.storage.get'], async (req) => {
  return { body: publicStorageSettings(await getStorageSettings(req.deps.table, req.tenant.tenant_id)) };
});
