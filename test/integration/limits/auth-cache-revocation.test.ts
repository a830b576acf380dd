import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memoryStores } from '../foundation/stores.js';
import { countingTable } from './table-call-counter.js';
import { AUTH_CACHE_TTL_MS, authenticate, clearAuthCache, forgetCachedKey } from '../../../functions/http/pipeline/authenticate.js';
import { createApiKey, revokeApiKey } from '../../../functions/core/tenancy/api-keys.js';
import { createTenant, setBilling } from '../../../functions/core/tenancy/tenants.js';
import { routeById } from '../../../functions/routes.js';
import { AppError } from '../../../functions/core/errors.js';
import type { Deps } from '../../../functions/runtime.js';
import type { Event } from '../../../functions/http/pipeline/types.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

// The key and tenant cache of the authenticated hot path (issue 31), the same code on Lambda and
// locally: a revocation made elsewhere (another Lambda instance, the operator CLI: here, a direct
// write to the table) is honoured within AUTH_CACHE_TTL_MS, and one made through this process at
// once. The clock is the request's `now`, so the bound is checked exactly, without waiting.
let stores: EmbeddedStores;
let table: DynamoTable;
beforeAll(async () => ({ stores, table } = await memoryStores()));
afterAll(async () => stores?.close());
beforeEach(() => clearAuthCache());

const route = routeById('tenant.get');
const event = (key: string) => ({ headers: { authorization: `Bearer ${key}` }, requestContext: { http: { method: 'GET' } } }) as unknown as Event;
const status = async (d: Deps, key: string, at: number) => {
  try {
    await authenticate(event(key), route, d, new Date(at));
    return 200;
  } catch (e) {
    if (e instanceof AppError) return e.status;
    throw e;
  }
};

describe('authenticated hot path: key and tenant cache', () => {
  it('reads the key and the tenant once per TTL, however many calls', async () => {
    const t0 = Date.now();
    const tenant = await createTenant(table, 'cache', new Date(t0));
    const { api_key } = await createApiKey(table, { tenantId: tenant.tenant_id, scopes: ['*'] }, new Date(t0));
    const c = countingTable(table);
    const d = { table: c.table } as unknown as Deps;
    // 64 concurrent calls share one read of each; the first also marks the key used (one write a minute).
    const first = await Promise.all(Array.from({ length: 64 }, () => status(d, api_key, t0)));
    expect(first.every((s) => s === 200)).toBe(true);
    expect(c.calls.get).toBe(2);
    for (let i = 0; i < 100; i++) expect(await status(d, api_key, t0 + (i * (AUTH_CACHE_TTL_MS - 1)) / 100)).toBe(200);
    expect(c.calls.get).toBe(2);
  });

  it('refuses a key revoked by another process within AUTH_CACHE_TTL_MS', async () => {
    const t0 = Date.now();
    const tenant = await createTenant(table, 'revoke-elsewhere', new Date(t0));
    const { key, api_key } = await createApiKey(table, { tenantId: tenant.tenant_id, scopes: ['*'] }, new Date(t0));
    const d = { table } as unknown as Deps;
    expect(await status(d, api_key, t0)).toBe(200);
    await revokeApiKey(table, key.key_id, new Date(t0 + 10)); // not through this process's cache
    // Until the cached record is AUTH_CACHE_TTL_MS old it may still be served: that is the stated delay…
    expect(await status(d, api_key, t0 + AUTH_CACHE_TTL_MS - 1)).toBe(200);
    // …and not a millisecond longer.
    expect(await status(d, api_key, t0 + AUTH_CACHE_TTL_MS)).toBe(401);
    expect(await status(d, api_key, t0 + AUTH_CACHE_TTL_MS + 60_000)).toBe(401);
  });

  it('refuses a key revoked through this process at once', async () => {
    const t0 = Date.now();
    const tenant = await createTenant(table, 'revoke-here', new Date(t0));
    const { key, api_key } = await createApiKey(table, { tenantId: tenant.tenant_id, scopes: ['*'] }, new Date(t0));
    const d = { table } as unknown as Deps;
    expect(await status(d, api_key, t0)).toBe(200);
    await revokeApiKey(table, key.key_id, new Date(t0 + 1));
    await forgetCachedKey(key.key_id); // what keys-revoke.ts does after the write
    expect(await status(d, api_key, t0 + 2)).toBe(401);
  });

  it('sees a suspended tenant within AUTH_CACHE_TTL_MS', async () => {
    const t0 = Date.now();
    const tenant = await createTenant(table, 'billing', new Date(t0));
    const { api_key } = await createApiKey(table, { tenantId: tenant.tenant_id, scopes: ['*'] }, new Date(t0));
    const d = { table } as unknown as Deps;
    const billing = async (at: number) => (await authenticate(event(api_key), route, d, new Date(at))).tenant.billing_status;
    expect(await billing(t0)).toBe('active');
    await setBilling(table, tenant.tenant_id, 'suspended');
    expect(await billing(t0 + AUTH_CACHE_TTL_MS)).toBe('suspended');
  });
});
