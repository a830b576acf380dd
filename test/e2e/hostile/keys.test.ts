import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createApiKey } from '../../../functions/core/tenancy/api-keys.js';

// Finding 11 (issue 9): a successor inherits the expiry, an expired key can do nothing, and no
// key can grant scopes it does not hold.
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.destroy();
});

const createKey = (json: unknown, key?: string) => svc.call('/dashboard/api/keys', { method: 'POST', json, key });
const rotate = (id: string, key?: string) => svc.call(`/dashboard/api/keys/${id}/rotate`, { method: 'POST', key });

describe('API keys', () => {
  it('a rotated key’s successor keeps the original expiry', async () => {
    const k = await createKey({ name: 'short', scopes: ['runs:read'], expires_in_days: 2 });
    expect(k.status).toBe(201);
    const r = await rotate(k.body.key_id);
    expect(r.status).toBe(201);
    expect(r.body.expires_at).toBe(k.body.expires_at);
  });

  it('a key cannot be rotated twice, and an expired key cannot be rotated back to life', async () => {
    const k = await createKey({ name: 'twice', scopes: ['runs:read'] });
    expect((await rotate(k.body.key_id)).status).toBe(201);
    const again = await rotate(k.body.key_id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', request_id: expect.any(String) });

    const expired = await createApiKey(svc.deps.table, { tenantId: svc.tenantId, scopes: ['*'], name: 'old', expiresAt: new Date(Date.now() - 60_000) }, new Date(Date.now() - 120_000));
    const byAdmin = await rotate(expired.key.key_id);
    expect(byAdmin.status).toBe(409);
    const bySelf = await rotate(expired.key.key_id, expired.api_key);
    expect(bySelf.status).toBe(401);
    expect((await svc.call('/v1/tenant', { key: expired.api_key })).status).toBe(401);
    const list = await svc.call('/dashboard/api/keys');
    expect(list.body.data.filter((x: { name: string }) => x.name === 'old')).toHaveLength(1);
  });

  it('an admin-scoped key cannot create or rotate keys with scopes it lacks', async () => {
    const admin = await createKey({ name: 'admin only', scopes: ['admin'] });
    const before = (await svc.call('/dashboard/api/keys')).body.data.length;
    for (const scopes of [['*'], ['runs:write'], ['admin', 'storage:write']]) {
      const r = await createKey({ name: 'escalate', scopes }, admin.body.api_key);
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ code: 'forbidden', message: expect.any(String), request_id: expect.any(String) });
    }
    const star = await createKey({ name: 'star', scopes: ['*'] });
    expect((await rotate(star.body.key_id, admin.body.api_key)).status).toBe(403);
    expect((await svc.call('/dashboard/api/keys')).body.data.length).toBe(before + 1);
    const ok = await createKey({ name: 'peer', scopes: ['admin'] }, admin.body.api_key);
    expect(ok.status).toBe(201);
  });

  // Issue 19 finding 5: a key's children expire no later than it does (clamped, and the response
  // shows the clamped expiry), whether made by create or by rotate.
  it('a key that expires tomorrow cannot mint a key that outlives it', async () => {
    const short = await createKey({ name: 'expires tomorrow', scopes: ['*'], expires_in_days: 1 });
    expect(short.status).toBe(201);
    const parentExpiry = Date.parse(short.body.expires_at);
    for (const json of [{ name: 'forever', scopes: ['runs:read'] }, { name: 'a year', scopes: ['runs:read'], expires_in_days: 365 }]) {
      const child = await createKey(json, short.body.api_key);
      expect(child.status).toBe(201);
      expect(child.body.expires_at).not.toBeNull();
      expect(Date.parse(child.body.expires_at)).toBeLessThanOrEqual(parentExpiry);
    }
    // A shorter lifetime than the parent's is kept as asked.
    const hour = await createApiKey(svc.deps.table, { tenantId: svc.tenantId, scopes: ['*'], name: 'an hour', expiresAt: new Date(Date.now() + 3_600_000) }, new Date());
    const sub = await createKey({ name: 'sub', scopes: ['runs:read'], expires_in_days: 1 }, hour.api_key);
    expect(Date.parse(sub.body.expires_at)).toBeLessThanOrEqual(Date.parse(hour.key.expires_at_iso!));
    // Rotating a permanent key with the short-lived one: the successor is bound by the caller too.
    const permanent = await createKey({ name: 'permanent', scopes: ['runs:read'] });
    const rotated = await rotate(permanent.body.key_id, short.body.api_key);
    expect(rotated.status).toBe(201);
    expect(Date.parse(rotated.body.expires_at)).toBeLessThanOrEqual(parentExpiry);
  });
});
