import { api } from './pipeline/api.js';
import { contracts } from './contracts/session.js';
import { login, SESSION_TTL_SECONDS } from '../core/tenancy/users.js';
import { unauthorized } from '../core/errors.js';
import { throttleLogin } from '../core/tenancy/login-throttle.js';
import { SESSION_COOKIE } from './pipeline/authenticate.js';

export const handler = api(contracts['session.login'], async (req) => {
  await throttleLogin(req.deps.rateLimiter, req.body.email, req.clientIp, req.now);
  const s = await login(req.deps.table, req.body.email, req.body.password, req.now);
  if (!s) throw unauthorized('Email or password is wrong');
  const secure = req.deps.config.mode === 'local' ? '' : '; Secure';
  return {
    body: { user_id: s.session.user_id, tenant_id: s.session.tenant_id, email: s.session.email, expires_at: new Date(s.session.expires_at * 1000).toISOString() },
    headers: { 'set-cookie': `${SESSION_COOKIE}=${s.token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_SECONDS}${secure}` },
  };
});
