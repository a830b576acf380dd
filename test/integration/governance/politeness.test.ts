import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostGate, type HostGateOptions } from '../../../functions/core/governance/politeness.js';
import type { Item, Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from '../foundation/stores.js';

// HostGate on the real DynamoDB adapter (dynalite): its conditional updates are what make every
// worker (every Lambda on AWS) share a host's slots, fairly between tenants.
let table: Table;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

/** A fake clock whose sleep advances time and yields, so waiting workers interleave without real waits. */
function fakeClock() {
  const clock = { t: 1_000_000, now: () => clock.t, sleep: async (ms: number) => { clock.t += ms; await new Promise((r) => setImmediate(r)); } };
  return clock;
}
let hostSeq = 0;
const host = (name: string) => `${name}-${++hostSeq}.test`;
/** The host's slot record. */
const gateRecord = async (h: string, scope = 'ALL') => (await table.get({ pk: `HOST#${h}`, sk: `GATE#${scope}` }, { consistent: true })) as Item | undefined;
const leases = (i: Item | undefined) => Object.keys(i ?? {}).filter((k) => k.startsWith('h_'));
/** Counts the table calls made through it. */
function counting(t: Table) {
  const c = { calls: 0, reads: 0, table: t };
  c.table = new Proxy(t, {
    get(target, prop, recv) {
      const v = Reflect.get(target, prop, recv);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        c.calls++;
        if (prop === 'get' || prop === 'query') c.reads++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return c;
}
const gate = (clock: ReturnType<typeof fakeClock>, o: Partial<HostGateOptions> = {}, t: Table = table) => new HostGate(t, { maxConcurrent: 2, minDelayMs: 0, now: clock.now, sleep: clock.sleep, ...o });

describe('HostGate on dynalite', () => {
  it('spaces request starts by minDelayMs', async () => {
    const clock = fakeClock();
    const g = gate(clock, { maxConcurrent: 5, minDelayMs: 1000 });
    const h = host('a');
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const release = await g.acquire(h);
      starts.push(clock.t);
      await release();
    }
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(1000);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(1000);
  });

  it('lets a larger crawl-delay override minDelayMs, and not a smaller one', async () => {
    const clock = fakeClock();
    const g = gate(clock, { maxConcurrent: 5, minDelayMs: 1000 });
    const h = host('b');
    await (await g.acquire(h, 7))();
    const t0 = clock.t;
    await (await g.acquire(h, 7))();
    expect(clock.t - t0).toBe(7000);
    const t1 = clock.t;
    await (await g.acquire(h, 0.2))();
    expect(clock.t - t1).toBe(7000); // the 7 s spacing set by the previous start still applies
    const t2 = clock.t;
    await (await g.acquire(h, 0.2))();
    expect(clock.t - t2).toBe(1000);
  });

  it('caps concurrency across gate instances sharing one table (workers) and frees every slot', async () => {
    const clock = fakeClock();
    const h = host('c');
    const workers = [0, 1, 2, 3].map(() => gate(clock, { pollMs: 10 }));
    let inFlight = 0;
    let peak = 0;
    await Promise.all(workers.flatMap((g) => [1, 2, 3].map(async () => {
      const release = await g.acquire(h);
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 30)); // held for real: the others' table calls take real time too
      inFlight--;
      await release();
    })));
    expect(peak).toBe(2);
    const rec = await gateRecord(h);
    expect(rec?.used).toBe(0);
    expect(leases(rec)).toEqual([]);
  });

  it('keeps hosts independent', async () => {
    const clock = fakeClock();
    const g = gate(clock, { maxConcurrent: 1, minDelayMs: 60_000 });
    const [d, e] = [host('d'), host('e')];
    await g.acquire(d);
    await g.acquire(e);
    expect(clock.t).toBe(1_000_000); // a busy d does not hold up e
    await g.acquire(d.toUpperCase() + '.'); // same host, other spelling: waits for the spacing and the slot
    expect(clock.t).toBeGreaterThanOrEqual(1_000_000 + 60_000);
  });

  it('frees the slot of a worker that never released once its lease ended', async () => {
    const clock = fakeClock();
    const h = host('f');
    await gate(clock, { maxConcurrent: 1 }).acquire(h); // never released
    const t0 = clock.t;
    await gate(clock, { maxConcurrent: 1, pollMs: 1000 }).acquire(h);
    expect(clock.t - t0).toBeGreaterThanOrEqual(60_000);
    expect(clock.t - t0).toBeLessThan(63_000);
    expect(leases(await gateRecord(h))).toHaveLength(1); // the dead lease is gone, the new one holds
  });

  it('costs two table writes a page without spacing and three with it, and no read; a held block costs two writes in all', async () => {
    const clock = fakeClock();
    const c = counting(table);
    const cheap = gate(clock, { maxConcurrent: 64 }, c.table);
    const h = host('cheap');
    for (let i = 0; i < 10; i++) await (await cheap.acquire(h))();
    expect(c.calls).toBe(20);
    c.calls = 0;
    const spaced = gate(clock, { minDelayMs: 250 }, c.table);
    const hs = host('spaced');
    for (let i = 0; i < 10; i++) {
      await (await spaced.acquire(hs))();
      clock.t += 250; // the next page starts after the spacing: no waiting, no read
    }
    expect(c.calls).toBe(30);
    expect(c.reads).toBe(0);
    // A crawl slice holds 4 slots for its 10 pages: one write to take them, one to give them back.
    c.calls = 0;
    const hh = host('held');
    const slice = gate(clock, { maxConcurrent: 64, hold: { host: hh, slots: 4 } }, c.table);
    let inFlight = 0;
    let peak = 0;
    await Promise.all(Array.from({ length: 10 }, async () => {
      const release = await slice.acquire(hh);
      inFlight++;
      peak = Math.max(peak, inFlight);
      await clock.sleep(10);
      inFlight--;
      await release();
    }));
    await slice.close();
    expect(peak).toBe(4);
    expect(c.calls).toBe(2);
    expect((await gateRecord(hh))?.used).toBe(0);
  });

  it('keeps a verified tenant\'s slots apart from everybody else\'s on the same host', async () => {
    const clock = fakeClock();
    const h = host('own');
    await gate(clock, { maxConcurrent: 1 }).acquire(h);
    await gate(clock, { maxConcurrent: 1, tenantScope: 't1' }).acquire(h);
    expect(clock.t).toBe(1_000_000); // neither waited for the other
    expect((await gateRecord(h))?.used).toBe(1);
    expect((await gateRecord(h, 'TEN#t1'))?.used).toBe(1);
  });

  it('extends its slot while a long crawl-delay keeps it waiting, so the slot is not taken over', async () => {
    const clock = fakeClock();
    const h = host('delay');
    const g = gate(clock, { leaseMs: 60_000 });
    await g.acquire(h, 90); // a 90 s crawl-delay: the next start waits longer than a lease
    const t0 = clock.t;
    await g.acquire(h, 90);
    expect(clock.t - t0).toBe(90_000);
    const rec = (await gateRecord(h))!;
    const ends = leases(rec).map((k) => Number(String(rec[k]).split('|')[1]));
    // The waiting worker's lease was extended when its start came (the first, never released, ran out).
    expect(ends.filter((u) => u >= clock.t + 60_000)).toHaveLength(1);
  });

  it('gives up after maxWaitMs', async () => {
    const clock = fakeClock();
    const h = host('h');
    const g = gate(clock, { maxConcurrent: 1, maxWaitMs: 5000, leaseMs: 600_000 });
    await g.acquire(h);
    await expect(g.acquire(h)).rejects.toThrow(/not available within 5000 ms/);
  });
});

describe('HostGate fairness between tenants (issue 19, finding 7)', () => {
  /**
   * A greedy tenant keeps every slot of a host busy: its workers take a slot again the moment they
   * give one back. Another tenant's single page must get a slot within a bounded number of the
   * greedy tenant's grants (first come, first served let the greedy tenant win every race).
   */
  async function starve(opts: { max: number; greedyWorkers: number; hold?: number }) {
    const clock = fakeClock();
    const h = host('shared');
    let stop = false;
    let greedyGrants = 0;
    let counting = false;
    let grantsWhileWaiting = 0;
    const greedy = async () => {
      while (!stop) {
        const g = gate(clock, { maxConcurrent: opts.max, tenant: 'ten_greedy', pollMs: 100, ...(opts.hold ? { hold: { host: h, slots: opts.hold } } : {}) });
        const release = await g.acquire(h);
        greedyGrants++;
        if (counting) grantsWhileWaiting++;
        await clock.sleep(50);
        await release();
        await g.close();
      }
    };
    const loops = Array.from({ length: opts.greedyWorkers }, greedy);
    while (greedyGrants < opts.greedyWorkers * 3) await clock.sleep(10); // the host is saturated
    counting = true;
    const other = gate(clock, { maxConcurrent: opts.max, tenant: 'ten_small', pollMs: 100, maxWaitMs: 300_000 });
    const release = await other.acquire(h);
    counting = false;
    stop = true;
    await release();
    await Promise.all(loops);
    return grantsWhileWaiting;
  }

  it('one slot: the waiting tenant is served before the greedy tenant gets more than one more grant', async () => {
    expect(await starve({ max: 1, greedyWorkers: 8 })).toBeLessThanOrEqual(2);
  });

  it('two slots, a greedy tenant with eight workers: served within two of its grants', async () => {
    expect(await starve({ max: 2, greedyWorkers: 8 })).toBeLessThanOrEqual(3);
  });

  it('a crawl holding every slot of a host in blocks (slices): the other tenant gets a slot at the next slice boundary', async () => {
    expect(await starve({ max: 8, greedyWorkers: 2, hold: 4 })).toBeLessThanOrEqual(2);
  });

  it('holds no block on a polite host (spacing, or fewer than twice the slots): a slot per request', async () => {
    const clock = fakeClock();
    const c = counting(table);
    const h = host('polite');
    const g = gate(clock, { maxConcurrent: 2, minDelayMs: 250, hold: { host: h, slots: 4 } }, c.table);
    for (let i = 0; i < 3; i++) {
      await (await g.acquire(h))();
      clock.t += 250;
    }
    await g.close();
    expect(c.calls).toBe(9); // take, spacing, give back: per request
  });
});

describe('HostGate giving way to interactive work on the same process (issue 21, fairness end to end)', () => {
  it('a crawl waiting for the next start gives its slot back while another tenant\'s run waits, then takes its start', async () => {
    const clock = fakeClock();
    const h = host('giveway');
    // The other tenant's run begins once the crawl holds the slot and waits for its start.
    let asked = 0;
    let otherDone = false;
    const crawl = gate(clock, { maxConcurrent: 1, minDelayMs: 250, tenant: 'ten_crawl', yieldTo: () => ++asked > 2 && !otherDone });
    const other = gate(clock, { maxConcurrent: 1, minDelayMs: 250, tenant: 'ten_small' });
    await (await gate(clock, { maxConcurrent: 1, minDelayMs: 250, tenant: 'ten_crawl' }).acquire(h))(); // a start just taken
    const order: string[] = [];
    const second = crawl.acquire(h).then((r) => (order.push('crawl'), r));
    while (asked < 3) await clock.sleep(1);
    // It gives its slot back rather than keep it through the spacing.
    for (let i = 0; i < 50 && leases(await gateRecord(h)).length; i++) await clock.sleep(1);
    expect(leases(await gateRecord(h))).toHaveLength(0);
    const mine = await other.acquire(h);
    order.push('small');
    otherDone = true;
    await mine();
    await (await second)();
    expect(order).toEqual(['small', 'crawl']);
  });

  it('lets one request go ahead every 2 s while giving way, so another tenant\'s work cannot stop a crawl', async () => {
    const clock = fakeClock();
    const h = host('bounded');
    const crawl = gate(clock, { maxConcurrent: 4, minDelayMs: 0, tenant: 'ten_crawl', yieldTo: () => true });
    const t0 = clock.now();
    // Four requests waiting at once go one at a time, 2 s apart: not all together once a wait ran out.
    const went: number[] = [];
    await Promise.all([0, 1, 2, 3].map(async () => {
      const release = await crawl.acquire(h);
      went.push(clock.now() - t0);
      await release();
    }));
    expect(went).toHaveLength(4);
    for (let i = 0; i < 4; i++) {
      expect(went[i]!).toBeGreaterThanOrEqual(2_000 * (i + 1));
      expect(went[i]!).toBeLessThan(2_000 * (i + 1) + 500);
    }
  });
});
