import { AppError, unauthorized, forbidden, paymentRequired } from '../../core/errors.js';
import type { Tenant } from '../../core/tenancy/tenants.js';
import { log } from '../../core/log.js';
import { cookie, header } from './event.js';
import type { Event, Principal } from './types.js';
import type { Deps } from '../../runtime.js';
import type { Route } from '../../routes.js';
import { lazy } from '../../adapters/aws/lazy.js';

export const SESSION_COOKIE = 'gleaner_session';

/**
 * Key and tenant records are cached in the process for at most AUTH_CACHE_TTL_MS, so the hot path
 * reads neither (two reads per key per TTL at most, however many calls). The TTL is the bound on
 * staleness: a key revoked or expired, or a tenant suspended or given new limits, by another process
 * (another Lambda instance, the operator CLI) is seen by this one within AUTH_CACHE_TTL_MS; a key
 * revoked or rotated through this process's API is dropped from its cache at once
 * (forgetCachedKey). Concurrent misses share one read (no stampede of identical reads).
 */
export const AUTH_CACHE_TTL_MS = 2000;
const cache = new Map<string, { at: number; value: Promise<unknown> }>();
async function cached<T>(k: string, now: number, load: () => Promise<T>): Promise<T> {
  const hit = cache.get(k);
  // `at` is when the read started: an entry is never older than the TTL, counted from its read.
  if (hit && now - hit.at < AUTH_CACHE_TTL_MS && now >= hit.at) return hit.value as Promise<T>;
  const value = load();
  if (cache.size > 5000) cache.clear();
  const entry = { at: now, value };
  cache.set(k, entry);
  // A failed read is not remembered.
  value.catch(() => cache.get(k) === entry && cache.delete(k));
  return value;
}
export const clearAuthCache = () => cache.clear();
/** Drops a key's cached record (by key id): its revocation or rotation applies to this process's next call. */
export async function forgetCachedKey(keyId: string): Promise<void> {
  for (const [k, e] of cache) {
    if (!k.startsWith('k:')) continue;
    const v = (await e.value.catch(() => undefined)) as { key_id?: string } | undefined;
    if (v?.key_id === keyId) cache.delete(k);
  }
}

const lastTouched = new Map<string, number>();

/**
 * The key, tenant and session stores (and their record schemas) load with the first request that
 * carries a credential: a request without one is answered 401 without them (cold start).
 */
const keyStores = lazy(() => Promise.all([import('../../core/tenancy/api-keys.js'), import('../../core/tenancy/tenants.js')]));
const sessionStores = lazy(() => Promise.all([import('../../core/tenancy/users.js'), import('../../core/tenancy/tenants.js')]));

/** 401 for a missing/unknown/revoked/expired key or session. */
export async function authenticate(e: Event, route: Route, d: Deps, now: Date): Promise<{ principal: Principal; tenant: Tenant }> {
  const auth = header(e, 'authorization');
  const nowMs = now.getTime();
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) throw unauthorized('The Authorization header must be "Bearer <API key>"');
    const plaintext = m[1]!;
    const [{ findKeyByPlaintext, hashKey, isUsable, touchApiKey }, { getTenant }] = await keyStores();
    const hash = hashKey(plaintext);
    const key = await cached(`k:${hash}`, nowMs, () => findKeyByPlaintext(d.table, plaintext));
    if (!key) throw unauthorized('The API key is not valid');
    if (!isUsable(key, now)) throw unauthorized(key.revoked_at ? 'The API key has been revoked' : 'The API key has expired');
    const tenant = await cached(`t:${key.tenant_id}`, nowMs, () => getTenant(d.table, key.tenant_id));
    if (!tenant) throw unauthorized('The API key is not valid');
    if ((lastTouched.get(hash) ?? 0) < nowMs - 60_000) {
      lastTouched.set(hash, nowMs);
      touchApiKey(d.table, hash, now).catch((err) => log.warn('last_used update failed', { err }));
    }
    return { principal: { type: 'key', id: key.key_id, scopes: key.scopes, tenant_id: key.tenant_id, expires_at: key.expires_at_iso }, tenant };
  }
  // The console's one credential is its HttpOnly session cookie, for the console API and for the
  // /v1 calls its pages make; never for MCP (agents use keys). State-changing cookie requests must
  // also pass the same-origin check (assertSameOrigin) against cross-site request forgery.
  const token = route.surface !== 'mcp' ? cookie(e, SESSION_COOKIE) : undefined;
  if (token) {
    const [{ findSession }, { getTenant }] = await sessionStores();
    const s = await findSession(d.table, token, now);
    if (!s) throw unauthorized('The console session has expired; log in again');
    const tenant = await cached(`t:${s.tenant_id}`, nowMs, () => getTenant(d.table, s.tenant_id));
    if (!tenant) throw unauthorized('The console session is not valid');
    return { principal: { type: 'user', id: s.user_id, scopes: ['*'], tenant_id: s.tenant_id, email: s.email }, tenant };
  }
  throw unauthorized('Missing Authorization header: send "Authorization: Bearer <API key>"');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for cookie-authenticated requests that change state (and for the login itself):
 * the browser must say the request comes from this origin, by `Sec-Fetch-Site: same-origin` or an
 * `Origin` equal to the service's own. A request with neither cannot prove it, so it is refused.
 * Bearer-key requests are not affected: a browser never attaches a key on its own.
 * @throws AppError 403 `csrf_rejected`
 */
export function assertSameOrigin(e: Event, expectedOrigin: string): void {
  if (SAFE_METHODS.has(e.requestContext.http.method)) return;
  const site = header(e, 'sec-fetch-site')?.toLowerCase();
  if (site !== undefined) {
    if (site === 'same-origin') return;
    throw csrfRejected(`Sec-Fetch-Site is ${site}`);
  }
  const from = header(e, 'origin');
  if (from !== undefined && from === expectedOrigin) return;
  throw csrfRejected(from === undefined ? 'no Origin header' : `Origin ${from}`);
}

/**
 * Login CSRF: a password POST carries no cookie yet, and scripts and CLIs send no Origin, so only a
 * request a browser marks as cross-site (by Origin or Sec-Fetch-Site) is refused.
 */
export function assertSameOriginIfBrowser(e: Event, expectedOrigin: string): void {
  if (header(e, 'sec-fetch-site') !== undefined || header(e, 'origin') !== undefined) assertSameOrigin(e, expectedOrigin);
}

const csrfRejected = (why: string) =>
  new AppError(403, 'csrf_rejected', `Cookie-authenticated requests that change state must come from the console's own origin (${why}); API clients send "Authorization: Bearer <API key>" instead`);

/** 403 when the key lacks the route's scope. */
export function authorize(p: Principal, route: Route): void {
  if (!route.scope || route.scope === 'authenticated') return;
  if (p.scopes.includes('*') || p.scopes.includes(route.scope)) return;
  throw forbidden(route.scope);
}

/** 402 when the tenant's billing status is not active. */
export function checkBilling(t: Tenant): void {
  if (t.billing_status !== 'active')
    throw paymentRequired(`The account's billing status is ${t.billing_status}; update billing to continue`);
}
