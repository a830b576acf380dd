import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { run as admin } from '../../../functions/cli/admin.js';
import { keys } from '../../../functions/core/table-keys.js';
import { clearAuthCache } from '../../../functions/http/pipeline/authenticate.js';

// Finding 1 (issue 9): a stored setting that does not read back must never be saved, and a
// record that somehow fails to parse is reported and skipped, never fatal.
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.destroy();
});

const policyPath = '/dashboard/api/settings/target-policy';

describe('target policy cannot brick a tenant', () => {
  it.each([['.'], ['*.'], ['..'], ['a..b'], [' '], ['-bad-.com'], ['exa mple.com']])('refuses domain %j with 400 and saves nothing', async (domain) => {
    const before = await svc.call(policyPath);
    expect(before.status).toBe(200);
    const r = await svc.call(policyPath, { method: 'PUT', json: { mode: 'open', domains: [domain] } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_request', message: expect.any(String), request_id: expect.any(String) });
    const after = await svc.call(policyPath);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
  });

  it('stores normalised, de-duplicated domains that read back as written', async () => {
    const r = await svc.call(policyPath, { method: 'PUT', json: { mode: 'allowlist', domains: ['*.Example.COM', 'example.com.', 'Bücher.example', '10.0.0.1'] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ mode: 'allowlist', domains: ['example.com', 'xn--bcher-kva.example', '10.0.0.1'] });
    expect((await svc.call(policyPath)).body).toEqual(r.body);
    await svc.call(policyPath, { method: 'PUT', json: { mode: 'open', domains: [] } });
  });

  it('the operator CLI refuses the same input', async () => {
    await expect(admin(['tenants', 'set-policy', svc.tenantId, '--mode', 'allowlist', '--domains', '.'], svc.deps.table)).rejects.toMatchObject({ status: 400 });
    const list = (await admin(['tenants', 'list'], svc.deps.table)) as { tenant_id: string; target_policy: unknown }[];
    expect(list.find((t) => t.tenant_id === svc.tenantId)?.target_policy).toEqual({ mode: 'open', domains: [] });
  });

  it('a corrupt key record is skipped: the key list still answers and the key itself is refused with 401', async () => {
    const k = await svc.call('/dashboard/api/keys', { method: 'POST', json: { name: 'to corrupt', scopes: ['runs:read'] } });
    const { hashKey } = await import('../../../functions/core/tenancy/api-keys.js');
    await svc.deps.table.update(keys.apiKey(hashKey(k.body.api_key)), { set: { scopes: ['no-such-scope'] } });
    clearAuthCache();
    const list = await svc.call('/dashboard/api/keys');
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { key_id: string }) => x.key_id)).not.toContain(k.body.key_id);
    const use = await svc.call('/v1/runs', { key: k.body.api_key });
    expect(use.status).toBe(401);
  });

  it('a corrupt tenant record is skipped by tenants list, other tenants keep working, and the server restarts', async () => {
    const other = (await admin(['tenants', 'create', '--name', 'victim'], svc.deps.table)) as { tenant_id: string; api_key: string };
    const bad = (await admin(['tenants', 'create', '--name', 'corrupt'], svc.deps.table)) as { tenant_id: string; api_key: string };
    // Written behind the API's back, as an older version or a hand edit might have.
    await svc.deps.table.update(keys.tenant(bad.tenant_id), { set: { target_policy: { mode: 'open', domains: [''] } } });
    clearAuthCache();
    const list = (await admin(['tenants', 'list'], svc.deps.table)) as { tenant_id: string }[];
    expect(list.map((t) => t.tenant_id)).toContain(other.tenant_id);
    expect(list.map((t) => t.tenant_id)).not.toContain(bad.tenant_id);
    const victim = await svc.call('/v1/tenant', { key: other.api_key });
    expect(victim.status).toBe(200);
    const corrupt = await svc.call('/v1/tenant', { key: bad.api_key });
    expect(corrupt.status).toBeLessThan(500);
    expect(corrupt.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    svc = await svc.restart();
    expect((await svc.call('/v1/tenant', { key: other.api_key })).status).toBe(200);
    expect((await svc.call('/v1/tenant')).status).toBe(200);
  });
});
