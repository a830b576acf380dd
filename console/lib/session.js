// Logging in and out. Two ways in:
//  - email + password: POST /dashboard/api/session sets the HttpOnly gleaner_session cookie;
//    the console then creates a short-lived key (scopes *, 1 day) for the /v1 calls, keeps it in
//    sessionStorage and revokes it at logout;
//  - a pasted API key, kept in sessionStorage for this tab and sent as Bearer.
import { auth, del, get, post, seg } from './api.js';

export const SESSION_KEY_PREFIX = 'console session';

export async function loginWithPassword(email, password) {
  const s = await post('/dashboard/api/session', { email, password }, { auth: 'cookie' });
  const name = `${SESSION_KEY_PREFIX} ${new Date().toISOString().slice(0, 16).replace('T', ' ')} ${email}`.slice(0, 100);
  let k;
  try {
    k = await post('/dashboard/api/keys', { name, scopes: ['*'], expires_in_days: 1 }, { auth: 'cookie' });
  } catch (err) {
    await del('/dashboard/api/session', { auth: 'cookie' }).catch(() => undefined);
    throw err;
  }
  auth.set({ mode: 'session', api_key: k.api_key, key_id: k.key_id, email: s.email, tenant_id: s.tenant_id });
  return auth.get();
}

export async function loginWithKey(apiKey) {
  const key = apiKey.trim();
  auth.set({ mode: 'key', api_key: key });
  try {
    const t = await get('/v1/tenant');
    auth.set({ mode: 'key', api_key: key, tenant_id: t.tenant_id, tenant_name: t.name });
    return auth.get();
  } catch (err) {
    auth.clear();
    throw err;
  }
}

/** Revoke the console's own key (session mode), end the cookie session, forget everything. Never throws. */
export async function logout() {
  const a = auth.get();
  if (a?.mode === 'session') {
    if (a.key_id) await del(`/dashboard/api/keys/${seg(a.key_id)}`, { quiet: true }).catch(() => undefined);
    await del('/dashboard/api/session', { auth: 'cookie' }).catch(() => undefined);
  }
  auth.clear();
}

export const who = () => {
  const a = auth.get();
  if (!a) return '';
  if (a.mode === 'session') return a.email ?? 'console user';
  return `API key${a.tenant_name ? ` · ${a.tenant_name}` : ''}`;
};
