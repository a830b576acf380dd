import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostGate } from '../../../functions/core/governance/politeness.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from '../foundation/stores.js';

// HostGate on the real DynamoDB adapter (dynalite): the conditions it writes must mean the same
// thing there as in the unit-test fake.
let table: Table;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

describe('HostGate on dynalite', () => {
  it('caps concurrency across workers and frees every slot', async () => {
    const workers = [0, 1, 2].map(() => new HostGate(table, { maxConcurrent: 2, minDelayMs: 0, pollMs: 5 }));
    let inFlight = 0;
    let peak = 0;
    await Promise.all(
      workers.flatMap((gate) => [1, 2].map(async () => {
        const release = await gate.acquire('busy.test');
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 30));
        inFlight--;
        await release();
      })),
    );
    expect(peak).toBeLessThanOrEqual(2);
    expect(peak).toBeGreaterThan(0);
    const left = await table.query({ pk: 'HOST#busy.test', skBeginsWith: 'SLOT#', consistent: true });
    expect(left.items).toEqual([]); // every slot given back
  });

  it('spaces starts by the crawl-delay', async () => {
    // A virtual clock: waiting advances it, so the assertion is about the gate's decisions, not timing.
    let clock = 1_000_000;
    const gate = new HostGate(table, { maxConcurrent: 4, minDelayMs: 0, now: () => clock, sleep: async (ms) => void (clock += ms) });
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      await gate.acquire('slow.test', 0.15);
      starts.push(clock);
    }
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(150);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(150);
  });
});
