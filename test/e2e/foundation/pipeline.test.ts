import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '../../support/local-service.js';
import { run as admin } from '../../../functions/cli/admin.js';
import { clearAuthCache } from '../../../functions/http/pipeline/authenticate.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc?.destroy());

const adminCli = (args: string[]) => admin(args, svc.deps.table);

describe('authentication and authorisation', () => {
  it('serves the service info without a key', async () => {
    const r = await svc.call('/v1', { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ service: 'gleaner', env: 'local', openapi: expect.stringContaining('/v1/openapi.json') });
    expect(r.body.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Object.keys(r.body.surfaces).sort()).toEqual(['console_api', 'console_ui', 'mcp', 'product_api']);
  });

  it('answers 401 with {code, message} without a key, with a malformed header and with an unknown key', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer glr_unknownunknownunknownunknown0000' }] as Record<string, string>[]) {
      const r = await svc.call('/v1/tenant', { key: null, headers });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ code: 'unauthorized', message: expect.any(String), request_id: expect.any(String) });
      expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
    }
  });

  it('answers 403 naming the scope when the key lacks it', async () => {
    const k = (await adminCli(['keys', 'create', '--tenant', svc.tenantId, '--scopes', 'runs:read'])) as { api_key: string };
    const r = await svc.call('/dashboard/api/audit', { key: k.api_key });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('forbidden');
    expect(r.body.message).toContain('admin');
  });

  it('rejects revoked and expired keys', async () => {
    const k = (await adminCli(['keys', 'create', '--tenant', svc.tenantId, '--scopes', '*'])) as { api_key: string; key_id: string };
    expect((await svc.call('/v1/tenant', { key: k.api_key })).status).toBe(200);
    await adminCli(['keys', 'revoke', k.key_id]);
    clearAuthCache();
    const r = await svc.call('/v1/tenant', { key: k.api_key });
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/revoked/);
  });

  it('rotation keeps the old key working through the grace period and issues a new one', async () => {
    const k = (await adminCli(['keys', 'create', '--tenant', svc.tenantId, '--scopes', '*'])) as { api_key: string; key_id: string };
    const rot = (await adminCli(['keys', 'rotate', k.key_id, '--grace', '1h'])) as { api_key: string; old_key_expires_at: string };
    clearAuthCache();
    expect((await svc.call('/v1/tenant', { key: k.api_key })).status).toBe(200);
    expect((await svc.call('/v1/tenant', { key: rot.api_key })).status).toBe(200);
    expect(new Date(rot.old_key_expires_at).getTime()).toBeGreaterThan(Date.now() + 3500_000);
  });
});

describe('billing and rate limits', () => {
  it('gives 402 to a past_due tenant and lets it back in when active', async () => {
    const t = (await adminCli(['tenants', 'create', '--name', 'late-payer'])) as { tenant_id: string; api_key: string };
    await adminCli(['tenants', 'set-billing', t.tenant_id, 'past_due']);
    const r = await svc.call('/v1/tenant', { key: t.api_key });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe('payment_required');
    await adminCli(['tenants', 'set-billing', t.tenant_id, 'active']);
    clearAuthCache();
    expect((await svc.call('/v1/tenant', { key: t.api_key })).status).toBe(200);
  });

  it('gives 429 with a positive integer Retry-After after 5 requests per minute, with RateLimit headers', async () => {
    const t = (await adminCli(['tenants', 'create', '--name', 'limited'])) as { tenant_id: string; api_key: string };
    await adminCli(['tenants', 'set-limits', t.tenant_id, '--rate', '5/60']);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await svc.call('/v1/tenant', { key: t.api_key });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('ratelimit-limit')).toBe('5');
        expect(last.headers.get('ratelimit-remaining')).toBe('4');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(last!.body.code).toBe('rate_limited');
    const ra = last!.headers.get('retry-after')!;
    expect(ra).toMatch(/^[1-9]\d*$/);
  });

  it('never admits more than the limit under concurrent callers', async () => {
    const t = (await adminCli(['tenants', 'create', '--name', 'burst'])) as { tenant_id: string; api_key: string };
    await adminCli(['tenants', 'set-limits', t.tenant_id, '--rate', '10/3600']);
    const rs = await Promise.all(Array.from({ length: 30 }, () => svc.call('/v1/tenant', { key: t.api_key })));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(10);
    expect(rs.filter((r) => r.status === 429)).toHaveLength(20);
  });
});

describe('request hygiene', () => {
  it('maps unknown routes to 404 JSON', async () => {
    const r = await svc.call('/v1/nope');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
    expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
    const post = await svc.call('/v1/nope/deeper', { method: 'POST', json: { a: 1 } });
    expect(post.status).toBe(404);
    expect(post.body.code).toBe('not_found');
  });

  it('rejects bad query values with details, never 500', async () => {
    const r = await svc.call('/dashboard/api/audit?limit=5000');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.details[0].path).toBe('query.limit');
    const u = await svc.call('/dashboard/api/audit?bogus=1');
    expect(u.status).toBe(400);
    expect(u.body.details[0].message).toContain('bogus');
    const c = await svc.call('/dashboard/api/audit?cursor=notacursor');
    expect(c.status).toBe(400);
  });
});

describe('audit', () => {
  it('records exactly one audit record per call, including denials', async () => {
    const t = (await adminCli(['tenants', 'create', '--name', 'audited'])) as { tenant_id: string; api_key: string };
    const limited = (await adminCli(['keys', 'create', '--tenant', t.tenant_id, '--scopes', 'runs:read'])) as { api_key: string; key_id: string };
    const ok = await svc.call('/v1/tenant', { key: t.api_key });
    const denied = await svc.call('/dashboard/api/audit', { key: limited.api_key });
    await svc.deps.audit.flush();
    const r = await svc.call('/dashboard/api/audit?limit=10', { key: t.api_key });
    await svc.deps.audit.flush();
    const recs = r.body.data as Array<{ request_id: string; outcome: string; status: number; action: string; principal: { id: string } }>;
    expect(recs.filter((x) => x.request_id === ok.body && ok.headers.get('x-request-id'))).toBeDefined();
    expect(recs.filter((x) => x.request_id === ok.headers.get('x-request-id'))).toHaveLength(1);
    const d = recs.filter((x) => x.request_id === denied.headers.get('x-request-id'));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ outcome: 'denied', status: 403, action: 'audit.list', principal: { id: limited.key_id } });
    const only = await svc.call('/dashboard/api/audit?outcome=denied', { key: t.api_key });
    expect(only.body.data.every((x: { outcome: string }) => x.outcome === 'denied')).toBe(true);
  });
});

describe('persistence and secrecy', () => {
  it('keeps keys and data across a restart, and never stores a key in plaintext', async () => {
    const created = (await adminCli(['tenants', 'create', '--name', 'durable'])) as { tenant_id: string; api_key: string };
    svc = await svc.restart();
    clearAuthCache();
    expect((await svc.call('/v1/tenant', { key: created.api_key })).status).toBe(200);
    expect((await svc.call('/v1/tenant')).body.name).toBe('default');
    await svc.deps.audit.flush();
    // Nothing under the data dir (table files, blobs) contains a plaintext key.
    const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
    for (const f of walk(svc.dataDir)) {
      const content = readFileSync(f);
      expect(content.includes(created.api_key), f).toBe(false);
      expect(content.includes(svc.key), f).toBe(false);
    }
  });
});

describe('bodies and idempotency (console keys API)', () => {
  it('rejects malformed JSON, a wrong content type, an oversized body and unknown fields with clear 4xx', async () => {
    const bad = await svc.call('/dashboard/api/keys', { method: 'POST', body: '{"scopes": [', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/not valid JSON/);
    const ct = await svc.call('/dashboard/api/keys', { method: 'POST', body: 'scopes=x', headers: { 'content-type': 'text/plain' } });
    expect(ct.status).toBe(415);
    expect(ct.body.code).toBe('unsupported_media_type');
    const big = await svc.call('/dashboard/api/keys', { method: 'POST', json: { scopes: ['runs:read'], name: 'x'.repeat(1_100_000) } });
    expect(big.status).toBe(413);
    const unknown = await svc.call('/dashboard/api/keys', { method: 'POST', json: { scopes: ['runs:read'], colour: 'red' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0]).toMatchObject({ path: 'body', message: expect.stringContaining('colour') });
    const scope = await svc.call('/dashboard/api/keys', { method: 'POST', json: { scopes: ['runs:fly'] } });
    expect(scope.status).toBe(400);
    expect(scope.body.details[0].path).toBe('body.scopes.0');
  });

  it('replays the first response for the same Idempotency-Key and body; 422 for a different body', async () => {
    const h = { 'idempotency-key': `idem-${Date.now()}` };
    const a = await svc.call('/dashboard/api/keys', { method: 'POST', headers: h, json: { scopes: ['runs:read'], name: 'ci' } });
    const b = await svc.call('/dashboard/api/keys', { method: 'POST', headers: h, json: { scopes: ['runs:read'], name: 'ci' } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const c = await svc.call('/dashboard/api/keys', { method: 'POST', headers: h, json: { scopes: ['runs:write'], name: 'ci' } });
    expect(c.status).toBe(422);
    expect(c.body.code).toBe('idempotency_key_reused');
    const list = await svc.call('/dashboard/api/keys');
    expect(list.body.data.filter((k: { key_id: string }) => k.key_id === a.body.key_id)).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(a.body.api_key);
  });

  it('logs a console user in with an HttpOnly cookie session', async () => {
    const { createUser } = await import('../../../functions/core/tenancy/users.js');
    await createUser(svc.deps.table, svc.tenantId, 'ops@example.com', 'correct horse battery', new Date());
    const wrong = await svc.call('/dashboard/api/session', { method: 'POST', key: null, json: { email: 'ops@example.com', password: 'nope' } });
    expect(wrong.status).toBe(401);
    const ok = await svc.call('/dashboard/api/session', { method: 'POST', key: null, json: { email: 'ops@example.com', password: 'correct horse battery' } });
    expect(ok.status).toBe(200);
    const setCookie = ok.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/HttpOnly; SameSite=Strict/);
    const me = await svc.call('/dashboard/api/session', { key: null, headers: { cookie: setCookie.split(';')[0]! } });
    expect(me.status).toBe(200);
    expect(me.body.principal.type).toBe('user');
    const api = await svc.call('/v1/tenant', { key: null, headers: { cookie: setCookie.split(';')[0]! } });
    // The session cookie is the console's only credential, so its /v1 calls accept it too (issue 9, finding 8).
    expect(api.status).toBe(200);
    const mcp = await svc.call('/mcp', { method: 'POST', key: null, headers: { cookie: setCookie.split(';')[0]! }, json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(mcp.status).toBe(401); // agents use keys, never a browser session
  });
});

describe('rate limit and errors together', () => {
  it('answers 429 (not the handler error) when a rate-limited GET also fails, without crashing', async () => {
    const t = (await adminCli(['tenants', 'create', '--name', 'limited-404'])) as { tenant_id: string; api_key: string };
    await adminCli(['tenants', 'set-limits', t.tenant_id, '--rate', '1/3600']);
    expect((await svc.call('/v1/queries/qry_00000000000000000000000000', { key: t.api_key })).status).toBe(404);
    const second = await svc.call('/v1/queries/qry_00000000000000000000000000', { key: t.api_key });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect((await svc.call('/v1')).status).toBe(200); // still serving
  });
});
