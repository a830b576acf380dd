import { api } from './pipeline/api.js';
import { contracts } from './contracts/storage-settings.js';
import { putStorageSettings } from '../core/sync/settings.js';
import { testBucketSync } from '../core/sync/bucket-sync.js';

/** "Save and test": save the body (if any), then upload a verification object with the customer's credentials. */
export const handler = api(contracts['settings.storage.test'], async (req) => {
  if (req.body) await putStorageSettings(req.deps, req.tenant.tenant_id, req.body, req.now);
  return { body: await testBucketSync(req.deps, req.tenant.tenant_id, req.now) };
});
