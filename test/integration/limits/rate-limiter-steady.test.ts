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

  it.each([
    [250, 600, 60],
    [1000, 600, 60],
    [150, 1000, 60],
  ])('after a window of a call every %i ms under %i per %i s, a burst still gets what the limit leaves', async (everyMs, limit, windowSeconds) => {
    // An exact limiter: a client well under its rate keeps its bucket nearly full (each call's
    // token is back before the next). Leases may cost a little, never the bucket: the unused
    // tokens of 1/20-of-the-limit leases once drained it, and the client's next burst got 429s.
    const rl = new RateLimiter(table);
    const tenant = `ten_burst_${everyMs}_${limit}`;
    const t0 = Date.parse('2026-11-28T12:00:00.000Z');
    const calls = Math.floor((windowSeconds * 1000) / everyMs);
    for (let i = 0; i < calls; i++) expect((await rl.take(tenant, 'api', limit, windowSeconds, new Date(t0 + i * everyMs))).allowed).toBe(true);
    const at = new Date(t0 + calls * everyMs);
    const burst = limit - Math.ceil(limit / 20);
    let allowed = 0;
    for (let i = 0; i < burst; i++) if ((await rl.take(tenant, 'api', limit, windowSeconds, at)).allowed) allowed++;
    expect(allowed).toBe(burst);
  });
});
