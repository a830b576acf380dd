import { api } from './pipeline/api.js';
import { contracts } from './contracts/profiles.js';
import { getProfile } from '../core/profiles/browser-profiles.js';

export const handler = api(contracts['profiles.get'], async (req) => {
  req.setResource(req.params.profile_id);
  return { body: await getProfile(req.deps.table, req.tenant.tenant_id, req.params.profile_id) };
});
