import { api } from './pipeline/api.js';
import { contracts } from './contracts/settings.js';
import { listEncounters } from '../core/captcha/captcha.js';

export const handler = api(contracts['captcha.encounters'], async (req) => ({ body: await listEncounters(req.deps.table, req.tenant.tenant_id, req.query) }));
