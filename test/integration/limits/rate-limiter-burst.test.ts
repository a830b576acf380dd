import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStores } from '../foundation/stores.js';
import { RateLimiter } from '../../../functions/core/limits/rate-limiter.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

/**
 * Concurrent calls of one tenant in one process share the lease the first of them reserves. Each
 * used to reserve a lease of its own: a burst of 36 calls under a 1000/60 limit took the whole
 * window in leases, kept one, and answered 429 to calls well under the limit.
 */
let stores: EmbeddedStores;
let table: DynamoTable;
beforeAll(async () => ({ stores, table } = await memoryStores()));
afterAll(async () => stores?.close());

describe('RateLimiter under a burst of concurrent calls', () => {
  it('admits a burst under a large limit in full', async () => {
    const rl = new RateLimiter(table);
    const now = new Date();
    const ds = await Promise.all(Array.from({ length: 60 }, () => rl.take('ten_burst', 'api', 1000, 60, now)));
    expect(ds.filter((d) => d.allowed)).toHaveLength(60);
  });

  it('admits exactly the limit under a small one, however many ask at once', async () => {
    const rl = new RateLimiter(table);
    const now = new Date();
    const ds = await Promise.all(Array.from({ length: 25 }, () => rl.take('ten_small', 'api', 10, 60, now)));
    expect(ds.filter((d) => d.allowed)).toHaveLength(10);
    for (const d of ds.filter((x) => !x.allowed)) expect(d.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('never admits more than the limit across two processes sharing the table', async () => {
    const a = new RateLimiter(table);
    const b = new RateLimiter(table);
    const now = new Date();
    const ds = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).take('ten_two', 'api', 200, 60, now)));
    const allowed = ds.filter((d) => d.allowed).length;
    expect(allowed).toBeLessThanOrEqual(200);
    // Leases of 10 per process: at most one lease's worth per process is held back.
    expect(allowed).toBeGreaterThanOrEqual(180);
  });
});
