import { api } from './pipeline/api.js';
import { contracts } from './contracts/settings.js';
import { putCaptchaPolicy } from '../core/captcha/captcha.js';

export const handler = api(contracts['captcha.policy.put'], async (req) => ({ body: await putCaptchaPolicy(req.deps.table, req.tenant.tenant_id, req.body) }));
