import { api } from './pipeline/api.js';
import { createProfile, profileBodySchema } from '../core/profiles/browser-profiles.js';

export const handler = api('profiles.create', { body: profileBodySchema }, async (req) => {
  const p = await createProfile(req.deps.table, req.tenant.tenant_id, req.body, req.now);
  req.setResource(p.profile_id);
  return { status: 201, body: p };
});
