import { api } from './pipeline/api.js';
import { pageQuery } from './schemas/common.js';
import { listProfiles } from '../core/profiles/browser-profiles.js';

export const handler = api('profiles.list', { query: pageQuery }, async (req) => ({ body: await listProfiles(req.deps.table, req.tenant.tenant_id, req.query) }));
