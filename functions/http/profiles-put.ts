import { api } from './pipeline/api.js';
import { contracts } from './contracts/profiles.js';
import { updateProfile } from '../core/profiles/browser-profiles.js';

export const handler = api(contracts['profiles.put'], async (req) => {
  req.setResource(req.params.profile_id);
  return { body: await updateProfile(req.deps.table, req.tenant.tenant_id, req.params.profile_id, req.body, req.now) };
});
