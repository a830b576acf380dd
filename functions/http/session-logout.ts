import { api } from './pipeline/api.js';
import { contracts } from './contracts/session.js';
import { logout } from '../core/tenancy/users.js';
import { SESSION_COOKIE } from './pipeline/authenticate.js';

export const handler = api(contracts['session.logout'], async (req) => {
  const token = req.cookie(SESSION_COOKIE);
  if (token) await logout(req.deps.table, token);
  return { status: 204, headers: { 'set-cookie': `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0` } };
});
