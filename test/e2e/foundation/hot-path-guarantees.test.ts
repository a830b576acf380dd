import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { run as admin } from '../../../functions/cli/admin.js';
import { AUTH_CACHE_TTL_MS } from '../../../functions/http/pipeline/authenticate.js';

// The cached, batched hot path (issue 31) as a client sees it on the local service: revocation
// through the API applies to the very next call, revocation from elsewhere (the operator CLI
// writes the table directly, like another Lambda instance) within AUTH_CACHE_TTL_MS, and every
// answered call has its audit record stored before its response is sent (no flush here).
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc?.destroy());

const adminCli = (args: string[]) => admin(args, svc.deps.table);
const newKey = async (tenant = svc.tenantId) => (await adminCli(['keys', 'create', '--tenant', tenant, '--scopes', '*'])) as { api_key: string; key_id: string };

describe('key revocation on the cached hot path', () => {
  it('refuses a key revoked through the API on its next call', async () => {
    const k = await newKey();
    expect((await svc.call('/v1/tenant', { key: k.api_key })).status).toBe(200);
    expect((await svc.call(`/dashboard/api/keys/${k.key_id}`, { method: 'DELETE' })).status).toBe(204);
    const r = await svc.call('/v1/tenant', { key: k.api_key });
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/revoked/);
  });

  it('refuses a key revoked elsewhere once AUTH_CACHE_TTL_MS have passed', async () => {
    const k = await newKey();
    expect((await svc.call('/v1/tenant', { key: k.api_key })).status).toBe(200);
    await adminCli(['keys', 'revoke', k.key_id]);
    await new Promise((r) => setTimeout(r, AUTH_CACHE_TTL_MS));
    const r = await svc.call('/v1/tenant', { key: k.api_key });
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/revoked/);
  });
});

describe('audit on the batched hot path', () => {
  it('has every answered call in the audit list, exactly once, as soon as the responses are in', async () => {
    const t = (await adminCli(['tenants', 'create', '--name', 'hot-audit'])) as { tenant_id: string; api_key: string };
    await adminCli(['tenants', 'set-limits', t.tenant_id, '--rate', '1000/1']);
    const paths = ['/v1/tenant', '/v1/runs?limit=1', '/v1/scrapers'];
    const ids = await Promise.all(Array.from({ length: 60 }, async (_, i) => {
      const r = await svc.call(paths[i % 3]!, { key: t.api_key });
      expect(r.status).toBe(200);
      return r.headers.get('x-request-id')!;
    }));
    const listed = await svc.call('/dashboard/api/audit?limit=200', { key: t.api_key });
    expect(listed.status).toBe(200);
    const seen = (listed.body.data as { request_id: string }[]).map((x) => x.request_id).filter((id) => ids.includes(id));
    expect(seen.sort()).toEqual([...ids].sort());
  });
});

/** Runs `fn`, counting the table queries made meanwhile: the route's read is a query; the limiter and the audit sink make none. */
async function countingReads<T>(fn: () => Promise<T>): Promise<{ result: T; reads: number }> {
  const table = svc.deps.table as { query: (...a: unknown[]) => Promise<unknown> };
  const query = table.query;
  let reads = 0;
  table.query = function (...a: unknown[]) {
    reads++;
    return query.apply(this, a);
  };
  try {
    return { result: await fn(), reads };
  } finally {
    table.query = query;
  }
}

describe('a client past its rate limit', () => {
  it('gets 429s without its reads running once the service knows the bucket is empty', async () => {
    const t = (await adminCli(['tenants', 'create', '--name', 'hot-denied'])) as { tenant_id: string; api_key: string };
    await adminCli(['tenants', 'set-limits', t.tenant_id, '--rate', '2/60']);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await svc.call('/v1/runs?limit=1', { key: t.api_key })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const { result: denied, reads } = await countingReads(() => Promise.all(Array.from({ length: 10 }, () => svc.call('/v1/runs?limit=1', { key: t.api_key }))));
    expect(denied.map((r) => r.status)).toEqual(Array(10).fill(429));
    expect(denied.every((r) => Number(r.headers.get('retry-after')) >= 1 && r.headers.get('ratelimit-limit') === '2')).toBe(true);
    expect(reads).toBe(0);
  });

  it('reads once for a burst that meets an empty bucket the service has not seen yet', async () => {
    const t = (await adminCli(['tenants', 'create', '--name', 'hot-burst'])) as { tenant_id: string; api_key: string };
    await adminCli(['tenants', 'set-limits', t.tenant_id, '--rate', '1/60']);
    expect((await svc.call('/v1/runs?limit=1', { key: t.api_key })).status).toBe(200);
    // The first call of the burst asks the table for a token and reads alongside it; the others
    // arrive while that question is open (or after its denial is known) and wait for its answer.
    const { result: denied, reads } = await countingReads(() => Promise.all(Array.from({ length: 10 }, () => svc.call('/v1/runs?limit=1', { key: t.api_key }))));
    expect(denied.map((r) => r.status)).toEqual(Array(10).fill(429));
    expect(reads).toBeLessThanOrEqual(1);
  });
});
