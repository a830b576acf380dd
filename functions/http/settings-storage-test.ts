import { api } from './pipeline/api.js';
import { storageTestBody } from './schemas/jobs.js';
import { putStorageSettings } from '../core/sync/settings.js';
import { testBucketSync } from '../core/sync/bucket-sync.js';

/** "Save and test": save the body (if any), then upload a verification object with the customer's credentials. */
export const handler = api('settings.storage.test', { body: storageTestBody }, async (req) => {
  if (req.body) await putStorageSettings(req.deps, req.tenant.tenant_id, req.body, req.now);
  return { body: await testBucketSync(req.deps, req.tenant.tenant_id, req.now) };
});
