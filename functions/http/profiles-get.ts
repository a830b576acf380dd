import { api } from './pipeline/api.js';
import { profileIdParams } from './schemas/registry.js';
import { getProfile } from '../core/profiles/browser-profiles.js';

export const handler = api('profiles.get', { params: profileIdParams }, async (req) => {
  req.setResource(req.params.profile_id);
  return { body: await getProfile(req.deps.table, req.tenant.tenant_id, req.params.profile_id) };
});
