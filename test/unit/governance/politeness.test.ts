import { describe, expect, it } from 'vitest';
import { HostGate } from '../../../functions/core/governance/politeness.js';
import { FakeGateTable } from './fake-gate-table.js';

/** A fake clock whose sleep advances time and yields, so waiting workers interleave deterministically. */
function fakeClock() {
  const clock = { t: 1_000_000, now: () => clock.t, sleep: async (ms: number) => { clock.t += ms; await new Promise((r) => setImmediate(r)); } };
  return clock;
}

describe('HostGate', () => {
  it('spaces request starts by minDelayMs', async () => {
    const clock = fakeClock();
    const gate = new HostGate(new FakeGateTable(), { maxConcurrent: 5, minDelayMs: 1000, now: clock.now, sleep: clock.sleep });
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const release = await gate.acquire('a.test');
      starts.push(clock.t);
      await release();
    }
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(1000);
    expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(1000);
  });

  it('lets a larger crawl-delay override minDelayMs, and not a smaller one', async () => {
    const clock = fakeClock();
    const gate = new HostGate(new FakeGateTable(), { maxConcurrent: 5, minDelayMs: 1000, now: clock.now, sleep: clock.sleep });
    await (await gate.acquire('b.test', 7))();
    const t0 = clock.t;
    await (await gate.acquire('b.test', 7))();
    expect(clock.t - t0).toBe(7000);
    const t1 = clock.t;
    await gate.acquire('b.test', 0.2);
    expect(clock.t - t1).toBe(7000); // the 7 s spacing set by the previous start still applies
    const t2 = clock.t;
    await gate.acquire('b.test', 0.2);
    expect(clock.t - t2).toBe(1000);
  });

  it('caps concurrency across gate instances sharing one table (workers)', async () => {
    const clock = fakeClock();
    const table = new FakeGateTable();
    const workers = [0, 1, 2, 3].map(() => new HostGate(table, { maxConcurrent: 2, minDelayMs: 0, now: clock.now, sleep: clock.sleep, pollMs: 10 }));
    let inFlight = 0;
    let peak = 0;
    await Promise.all(
      workers.flatMap((gate) => [1, 2, 3].map(async () => {
        const release = await gate.acquire('c.test');
        inFlight++;
        peak = Math.max(peak, inFlight);
        await clock.sleep(50);
        inFlight--;
        await release();
      })),
    );
    expect(peak).toBe(2);
    const item = await table.get({ pk: 'HOST#c.test', sk: 'GATE' });
    expect(item).toMatchObject({ active: 0, leases: {} });
  });

  it('keeps hosts independent', async () => {
    const clock = fakeClock();
    const gate = new HostGate(new FakeGateTable(), { maxConcurrent: 1, minDelayMs: 60_000, now: clock.now, sleep: clock.sleep });
    await gate.acquire('d.test');
    await gate.acquire('e.test');
    expect(clock.t).toBe(1_000_000); // a busy d.test does not hold up e.test
    await gate.acquire('D.TEST.'); // same host, other spelling: waits for the spacing and the slot
    expect(clock.t).toBeGreaterThanOrEqual(1_000_000 + 60_000);
  });

  it('frees the slot of a worker that never released after the lease expires', async () => {
    const clock = fakeClock();
    const table = new FakeGateTable();
    const crashed = new HostGate(table, { maxConcurrent: 1, minDelayMs: 0, now: clock.now, sleep: clock.sleep });
    await crashed.acquire('f.test'); // never released
    const other = new HostGate(table, { maxConcurrent: 1, minDelayMs: 0, now: clock.now, sleep: clock.sleep, pollMs: 1000 });
    const t0 = clock.t;
    await other.acquire('f.test');
    expect(clock.t - t0).toBeGreaterThanOrEqual(60_000);
    expect(clock.t - t0).toBeLessThan(62_000);
  });

  it('retries after losing a conditional write to another worker', async () => {
    const clock = fakeClock();
    const table = new FakeGateTable();
    const gate = new HostGate(table, { maxConcurrent: 1, minDelayMs: 0, now: clock.now, sleep: clock.sleep });
    let raced = false;
    table.beforePut = async () => {
      if (raced) return;
      raced = true;
      table.beforePut = undefined;
      // Another worker creates the item between our read and our write.
      await table.put({ pk: 'HOST#g.test', sk: 'GATE', active: 0, next_allowed_at: 0, leases: {}, version: 1 });
    };
    const release = await gate.acquire('g.test');
    expect(raced).toBe(true);
    expect((await table.get({ pk: 'HOST#g.test', sk: 'GATE' }))?.version).toBe(2);
    await release();
    await release(); // idempotent
    expect(await table.get({ pk: 'HOST#g.test', sk: 'GATE' })).toMatchObject({ active: 0, version: 3 });
  });

  it('gives up after maxWaitMs', async () => {
    const clock = fakeClock();
    const gate = new HostGate(new FakeGateTable(), { maxConcurrent: 1, minDelayMs: 0, now: clock.now, sleep: clock.sleep, maxWaitMs: 5000, leaseMs: 600_000 });
    await gate.acquire('h.test');
    await expect(gate.acquire('h.test')).rejects.toThrow(/not available within 5000 ms/);
  });
});
