import { api } from './pipeline/api.js';
import { profileIdParams } from './schemas/registry.js';
import { deleteProfile } from '../core/profiles/browser-profiles.js';

export const handler = api('profiles.delete', { params: profileIdParams }, async (req) => {
  req.setResource(req.params.profile_id);
  await deleteProfile(req.deps.table, req.tenant.tenant_id, req.params.profile_id);
  return { status: 204 };
});
