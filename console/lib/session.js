// Logging in and out. Two ways in:
//  - email + password: POST /dashboard/api/session sets the HttpOnly gleaner_session cookie, the
//    console's one credential for every call (console API and /v1); page scripts never hold a
//    secret, so an injected script has no key to steal (it could only act while the tab is open);
//  - a pasted API key, kept in sessionStorage for this tab and sent as Bearer.
import { auth, del, get, post } from './api.js';

export async function loginWithPassword(email, password) {
  const s = await post('/dashboard/api/session', { email, password }, { auth: 'cookie' });
  auth.set({ mode: 'session', email: s.email, tenant_id: s.tenant_id });
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

/** End the cookie session (session mode), forget everything. Never throws. */
export async function logout() {
  const a = auth.get();
  if (a?.mode === 'session') await del('/dashboard/api/session', { auth: 'cookie' }).catch(() => undefined);
  auth.clear();
}

export const who = () => {
  const a = auth.get();
  if (!a) return '';
  if (a.mode === 'session') return a.email ?? 'console user';
  return `API key${a.tenant_name ? ` · ${a.tenant_name}` : ''}`;
};
