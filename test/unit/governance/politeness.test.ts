import { describe, expect, it } from 'vitest';
import { HostGate } from '../../../functions/core/governance/politeness.js';
import { FakeGateTable } from './fake-gate-table.js';

/** A fake clock whose sleep advances time and yields, so waiting workers interleave deterministically. */
function fakeClock() {
  const clock = { t: 1_000_000, now: () => clock.t, sleep: async (ms: number) => { clock.t += ms; await new Promise((r) => setImmediate(r)); } };
  return clock;
}

/** Keys of the slot records currently held. */
const heldSlots = (table: FakeGateTable) => [...table.items.entries()].filter(([k]) => k.includes('|SLOT#')).map(([k]) => k);

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
    expect(heldSlots(table)).toEqual([]); // every slot given back
    expect([...table.items.keys()].filter((k) => k.includes('SLOT#ALL#')).length).toBe(0);
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

  it('takes another slot after losing one to another worker', async () => {
    const clock = fakeClock();
    const table = new FakeGateTable();
    // Always try slot 0 first, so the race is on that slot.
    const gate = new HostGate(table, { maxConcurrent: 2, minDelayMs: 0, now: clock.now, sleep: clock.sleep, random: () => 0 });
    let raced = false;
    table.beforePut = async (item) => {
      if (raced || !item.sk.endsWith('#0')) return;
      raced = true;
      // Another worker takes slot 0 between our choice and our write.
      table.items.set(`${item.pk}|${item.sk}`, { pk: item.pk, sk: item.sk, holder: 'other', lease_until: clock.t + 60_000 });
    };
    const release = await gate.acquire('g.test');
    expect(raced).toBe(true);
    expect(heldSlots(table).sort()).toEqual(['HOST#g.test|SLOT#ALL#0', 'HOST#g.test|SLOT#ALL#1']);
    await release();
    await release(); // idempotent
    expect(heldSlots(table)).toEqual(['HOST#g.test|SLOT#ALL#0']); // the other worker's slot is untouched
  });

  it('costs two table writes a page without spacing and three with it, and no read (issue 12)', async () => {
    const clock = fakeClock();
    const table = new FakeGateTable();
    const gate = new HostGate(table, { maxConcurrent: 64, minDelayMs: 0, now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 10; i++) await (await gate.acquire('cheap.test'))();
    expect(table.calls).toBe(20);
    const spaced = new HostGate(table, { maxConcurrent: 2, minDelayMs: 250, now: clock.now, sleep: clock.sleep });
    table.calls = 0;
    for (let i = 0; i < 10; i++) {
      await (await spaced.acquire('spaced.test'))();
      clock.t += 250; // the next page starts after the spacing: no waiting, no read
    }
    expect(table.calls).toBe(30);
  });

  it('keeps a verified tenant\'s slots apart from everybody else\'s on the same host', async () => {
    const clock = fakeClock();
    const table = new FakeGateTable();
    const shared = new HostGate(table, { maxConcurrent: 1, minDelayMs: 0, now: clock.now, sleep: clock.sleep });
    const owner = new HostGate(table, { maxConcurrent: 1, minDelayMs: 0, now: clock.now, sleep: clock.sleep, tenantScope: 't1' });
    await shared.acquire('own.test');
    await owner.acquire('own.test');
    expect(clock.t).toBe(1_000_000); // neither waited for the other
    expect(heldSlots(table).sort()).toEqual(['HOST#own.test|SLOT#ALL#0', 'HOST#own.test|SLOT#TEN#t1#0']);
  });

  it('extends its slot while a long crawl-delay keeps it waiting, so the slot is not taken over', async () => {
    const clock = fakeClock();
    const table = new FakeGateTable();
    const gate = new HostGate(table, { maxConcurrent: 2, minDelayMs: 0, leaseMs: 60_000, now: clock.now, sleep: clock.sleep });
    await gate.acquire('delay.test', 90); // a 90 s crawl-delay: the next start waits longer than a lease
    const t0 = clock.t;
    await gate.acquire('delay.test', 90);
    expect(clock.t - t0).toBe(90_000);
    const slots = [...table.items.values()].filter((i) => i.sk.startsWith('SLOT#'));
    // The waiting worker's slot was extended when its start came (the first, never released, ran out).
    expect(slots.filter((s) => Number(s.lease_until) > clock.t)).toHaveLength(1);
    expect(slots.filter((s) => Number(s.lease_until) >= clock.t + 60_000)).toHaveLength(1);
  });

  it('gives up after maxWaitMs', async () => {
    const clock = fakeClock();
    const gate = new HostGate(new FakeGateTable(), { maxConcurrent: 1, minDelayMs: 0, now: clock.now, sleep: clock.sleep, maxWaitMs: 5000, leaseMs: 600_000 });
    await gate.acquire('h.test');
    await expect(gate.acquire('h.test')).rejects.toThrow(/not available within 5000 ms/);
  });
});
