import { describe, expect, it } from 'vitest';
import { newId, pooledRandom } from '../../../functions/core/ids.js';

// Ids draw their randomness from a pooled CSPRNG (ids.ts): still well spread, unique and
// sortable, across many refills of the pool.
describe('newId', () => {
  it('makes unique, prefixed, time-sortable ids', () => {
    const ids = Array.from({ length: 20_000 }, () => newId('req'));
    expect(new Set(ids).size).toBe(ids.length);
    // One expect over the misfits, not 20,000 expects (each costs more than the id it checks).
    expect(ids.filter((id) => !/^req_[0-9a-hjkmnp-tv-z]{26}$/.test(id))).toEqual([]);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws uniform values in [0, 1) from the pool, across refills', () => {
    const n = 64_000; // about 16 refills of the 4 KiB pool
    const buckets = new Array<number>(32).fill(0);
    const outOfRange: number[] = [];
    for (let i = 0; i < n; i++) {
      const v = pooledRandom();
      if (!(v >= 0 && v < 1)) outOfRange.push(v);
      else buckets[Math.floor(v * 32)]!++;
    }
    expect(outOfRange).toEqual([]);
    // Each of the 32 ulid characters expected n/32 = 2,000 times; 5 sigma is about 220.
    for (const b of buckets) expect(Math.abs(b - n / 32)).toBeLessThan(250);
  });
});
