import { api } from './pipeline/api.js';
import { contracts } from './contracts/profiles.js';
import { createProfile } from '../core/profiles/browser-profiles.js';

export const handler = api(contracts['profiles.create'], async (req) => {
  const p = await createProfile(req.deps.table, req.tenant.tenant_id, req.body, req.now);
  req.setResource(p.profile_id);
  return { status: 201, body: p };
});
