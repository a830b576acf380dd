import { api, lazyContract, loadOnce } from './pipeline/api.js';
import { unauthorized } from '../core/errors.js';
import { SESSION_COOKIE } from './pipeline/authenticate.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/tenancy/users.js'), import('../core/tenancy/login-throttle.js')]));

export const handler = api(lazyContract('session.login', () => import('./contracts/session.js').then((m) => m.contracts['session.login'])), async (req) => {
  const [{ login, SESSION_TTL_SECONDS }, { throttleLogin }] = await core();
  await throttleLogin(req.deps.rateLimiter, req.body.email, req.clientIp, req.now);
  const s = await login(req.deps.table, req.body.email, req.body.password, req.now);
  if (!s) throw unauthorized('Email or password is wrong');
  const secure = req.deps.config.mode === 'local' ? '' : '; Secure';
  return {
    body: { user_id: s.session.user_id, tenant_id: s.session.tenant_id, email: s.session.email, expires_at: new Date(s.session.expires_at * 1000).toISOString() },
    headers: { 'set-cookie': `${SESSION_COOKIE}=${s.token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_SECONDS}${secure}` },
  };
});
