import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createUser } from '../../../functions/core/tenancy/users.js';

// Finding 8 (issue 9): state-changing cookie requests need a same-origin Origin or
// Sec-Fetch-Site: same-origin (403 otherwise); bearer-key clients are unaffected.
let svc: TestService;
let cookie: string;
beforeAll(async () => {
  svc = await startTestService();
  await createUser(svc.deps.table, svc.tenantId, 'ops@example.com', 'correct horse battery', new Date());
  const r = await svc.call('/dashboard/api/session', { method: 'POST', key: null, json: { email: 'ops@example.com', password: 'correct horse battery' } });
  cookie = r.headers.get('set-cookie')!.split(';')[0]!;
});
afterAll(async () => {
  await svc?.destroy();
});

const withCookie = (path: string, init: { method?: string; headers?: Record<string, string>; json?: unknown } = {}) =>
  svc.call(path, { ...init, key: null, headers: { cookie, ...init.headers } });

describe('cross-site request forgery', () => {
  it.each([
    ['no Origin', {}],
    ['another Origin', { origin: 'https://evil.example' }],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
    ['a look-alike Origin', { origin: 'http://127.0.0.1.evil.example' }],
  ])('a cookie POST with %s is refused with 403 and changes nothing', async (_, headers) => {
    const k = await svc.call('/dashboard/api/keys', { method: 'POST', json: { name: 'target', scopes: ['runs:read'] } });
    const rot = await withCookie(`/dashboard/api/keys/${k.body.key_id}/rotate`, { method: 'POST', headers });
    expect(rot.status).toBe(403);
    expect(rot.body).toMatchObject({ code: 'csrf_rejected', message: expect.any(String), request_id: expect.any(String) });
    const del = await withCookie(`/dashboard/api/keys/${k.body.key_id}`, { method: 'DELETE', headers });
    expect(del.status).toBe(403);
    const put = await withCookie('/dashboard/api/settings/target-policy', { method: 'PUT', headers, json: { mode: 'allowlist', domains: ['evil.example'] } });
    expect(put.status).toBe(403);
    const keys = (await svc.call('/dashboard/api/keys')).body.data;
    expect(keys.find((x: { key_id: string }) => x.key_id === k.body.key_id)).toMatchObject({ status: 'active', expires_at: null });
    expect((await svc.call('/dashboard/api/settings/target-policy')).body).toEqual({ mode: 'open', domains: [] });
  });

  it('same-origin cookie requests and safe reads work; bearer clients need no Origin', async () => {
    const k = await svc.call('/dashboard/api/keys', { method: 'POST', json: { name: 'mine', scopes: ['runs:read'] } });
    expect((await withCookie(`/dashboard/api/keys/${k.body.key_id}/rotate`, { method: 'POST', headers: { origin: svc.url } })).status).toBe(201);
    expect((await withCookie('/dashboard/api/keys', { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' }, json: { name: 'x', scopes: ['runs:read'] } })).status).toBe(201);
    expect((await withCookie('/dashboard/api/keys')).status).toBe(200);
    expect((await withCookie('/v1/tenant')).status).toBe(200);
    expect((await svc.call('/dashboard/api/keys', { method: 'POST', json: { name: 'y', scopes: ['runs:read'] } })).status).toBe(201);
  });

  it('a cross-site login form post is refused (login CSRF); scripts without Origin can still log in', async () => {
    const evil = await svc.call('/dashboard/api/session', { method: 'POST', key: null, headers: { origin: 'https://evil.example' }, json: { email: 'ops@example.com', password: 'correct horse battery' } });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('set-cookie')).toBeNull();
    const ok = await svc.call('/dashboard/api/session', { method: 'POST', key: null, headers: { origin: svc.url }, json: { email: 'ops@example.com', password: 'correct horse battery' } });
    expect(ok.status).toBe(200);
  });
});
