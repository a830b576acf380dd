import { api } from './pipeline/api.js';
import { contracts } from './contracts/profiles.js';
import { deleteProfile } from '../core/profiles/browser-profiles.js';

export const handler = api(contracts['profiles.delete'], async (req) => {
  req.setResource(req.params.profile_id);
  await deleteProfile(req.deps.table, req.tenant.tenant_id, req.params.profile_id);
  return { status: 204 };
});
