import { api } from './pipeline/api.js';
import { captchaPolicySchema, putCaptchaPolicy } from '../core/captcha/captcha.js';

export const handler = api('captcha.policy.put', { body: captchaPolicySchema }, async (req) => ({ body: await putCaptchaPolicy(req.deps.table, req.tenant.tenant_id, req.body) }));
