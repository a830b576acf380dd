import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStores } from '../foundation/stores.js';
import { RateLimiter } from '../../../functions/core/limits/rate-limiter.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

/**
 * A client calling steadily under its limit is never refused, however the process's leases of
 * tokens (up to 1/20 of the limit, kept a second) fall between its calls: a lease's unused tokens
 * must not drain the bucket of a client that polls a few times a second.
 */
let stores: EmbeddedStores;
let table: DynamoTable;
beforeAll(async () => ({ stores, table } = await memoryStores()));
afterAll(async () => stores?.close());

describe('RateLimiter under steady calls', () => {
  it.each([
    [250, 600, 60],
    [100, 600, 60],
    [70, 1000, 60],
  ])('a call every %i ms under %i per %i s is never refused over two windows', async (everyMs, limit, windowSeconds) => {
    const rl = new RateLimiter(table);
    const t0 = Date.parse('2026-11-28T12:00:00.000Z');
    const refused: number[] = [];
    const calls = Math.floor((2 * windowSeconds * 1000) / everyMs);
    for (let i = 0; i < calls; i++) {
      const d = await rl.take(`ten_steady_${everyMs}_${limit}`, 'api', limit, windowSeconds, new Date(t0 + i * everyMs));
      if (!d.allowed) refused.push(i);
    }
    expect(refused.slice(0, 5), `${refused.length} of ${calls} calls refused`).toEqual([]);
  });
});
