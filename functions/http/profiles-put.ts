import { api } from './pipeline/api.js';
import { profileIdParams } from './schemas/registry.js';
import { profileBodySchema, updateProfile } from '../core/profiles/browser-profiles.js';

export const handler = api('profiles.put', { params: profileIdParams, body: profileBodySchema }, async (req) => {
  req.setResource(req.params.profile_id);
  return { body: await updateProfile(req.deps.table, req.tenant.tenant_id, req.params.profile_id, req.body, req.now) };
});
