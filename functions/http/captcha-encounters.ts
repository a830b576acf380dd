import { api } from './pipeline/api.js';
import { encountersQuery } from './schemas/runs.js';
import { listEncounters } from '../core/captcha/captcha.js';

export const handler = api('captcha.encounters', { query: encountersQuery }, async (req) => ({ body: await listEncounters(req.deps.table, req.tenant.tenant_id, req.query) }));
