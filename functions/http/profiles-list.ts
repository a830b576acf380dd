import { api } from './pipeline/api.js';
import { contracts } from './contracts/profiles.js';
import { listProfiles } from '../core/profiles/browser-profiles.js';

export const handler = api(contracts['profiles.list'], async (req) => ({ body: await listProfiles(req.deps.table, req.tenant.tenant_id, req.query) }));
