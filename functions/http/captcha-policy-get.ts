import { api } from './pipeline/api.js';
import { contracts } from './contracts/settings.js';
import { getCaptchaPolicy } from '../core/captcha/captcha.js';

export const handler = api(contracts['captcha.policy.get'], async (req) => ({ body: await getCaptchaPolicy(req.deps.table, req.tenant.tenant_id) }));
