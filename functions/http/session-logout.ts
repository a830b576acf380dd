import { api, lazyContract, loadOnce } from './pipeline/api.js';
import { SESSION_COOKIE } from './pipeline/authenticate.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/tenancy/users.js'));

export const handler = api(lazyContract('session.logout', () => import('./contracts/session.js').then((m) => m.contracts['session.logout'])), async (req) => {
  const { logout } = await core();
  const token = req.cookie(SESSION_COOKIE);
  if (token) await logout(req.deps.table, token);
  return { status: 204, headers: { 'set-cookie': `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0` } };
});
