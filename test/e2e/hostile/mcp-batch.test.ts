import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createTenant, setLimits } from '../../../functions/core/tenancy/tenants.js';
import { createApiKey } from '../../../functions/core/tenancy/api-keys.js';

// Issue 19 finding 3: a JSON-RPC batch is one HTTP request but many tool calls. Every message of
// a batch takes its own rate-limit token (long-polling get_run calls included), so a batch can
// never do more than the same calls sent one by one.
let svc: TestService;
const LIMIT = 5;

beforeAll(async () => {
  svc = await startTestService();
}, 60_000);
afterAll(async () => {
  await svc?.destroy();
});

/** A tenant of its own with a low limit (a 60 s window: nothing refills during the test), and its key. */
async function lowLimitKey(): Promise<string> {
  const tenant = await createTenant(svc.deps.table, 'batch tenant', new Date());
  await setLimits(svc.deps.table, tenant.tenant_id, { ...tenant.limits, rate_requests: LIMIT, rate_seconds: 60 });
  return (await createApiKey(svc.deps.table, { tenantId: tenant.tenant_id, scopes: ['*'], name: 'batch' }, new Date())).api_key;
}

const call = (id: number, name = 'get_started', args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const mcp = (key: string, json: unknown) => svc.call('/mcp', { method: 'POST', json, key, headers: { accept: 'application/json, text/event-stream' } });

describe('MCP JSON-RPC batches and the rate limit', () => {
  it('a batch takes one token per message: a batch of 3 leaves 2 of 5 calls', async () => {
    const key = await lowLimitKey();
    const batch = await mcp(key, [call(1), call(2), call(3)]);
    expect(batch.status).toBe(200);
    expect(batch.body).toHaveLength(3);
    expect((await mcp(key, call(4))).status).toBe(200);
    expect((await mcp(key, call(5))).status).toBe(200);
    const over = await mcp(key, call(6));
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'rate_limited', message: expect.any(String) });
  });

  it('a batch of long-polling get_run calls larger than the limit is refused before any call runs', async () => {
    const key = await lowLimitKey();
    const polls = Array.from({ length: 20 }, (_, i) => call(i + 1, 'get_run', { run_id: 'run_00000000000000000000000000', wait_seconds: 25 }));
    const big = await mcp(key, polls);
    expect(big.status).toBe(429);
    expect(big.body).toMatchObject({ code: 'rate_limited', message: expect.any(String) });
    // Nothing is left for a single call either: the batch spent the whole allowance.
    expect((await mcp(key, call(1))).status).toBe(429);
  });
});
