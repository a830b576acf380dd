import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGate } from '../../../functions/core/governance/host-gates.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from '../foundation/stores.js';

// On the real DynamoDB adapter (dynalite), as the crawl's gate runs. Each test has hosts of its own.
let table: Table;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

// Issue 19 finding 1: a verified host's raised limits bind that host only. A verified
// attacker.example that redirects to victim.example must meet victim's polite gate.
describe('runGate', () => {
  const polite = { maxConcurrent: 1, minDelayMs: 0, maxWaitMs: 50, pollMs: 5 };
  const raised = { host: 'attacker.example', tenantId: 'ten_1', concurrency: 8, delayMs: 0 };

  it('gives the verified host its raised concurrency', async () => {
    const gate = runGate(table, polite, raised)!;
    const held = await Promise.all(Array.from({ length: 8 }, () => gate.acquire('attacker.example')));
    expect(held).toHaveLength(8);
  });

  it('keeps every other host at the polite limit, whoever redirected there', async () => {
    const gate = runGate(table, polite, raised)!;
    const first = await gate.acquire('victim.example');
    await expect(gate.acquire('victim.example')).rejects.toThrow(/not available/);
    await first();
    await expect(gate.acquire('victim.example')).resolves.toBeTypeOf('function');
    // A subdomain or another port of the verified host is another host.
    const sub = await gate.acquire('www.attacker.example');
    await expect(gate.acquire('www.attacker.example')).rejects.toThrow(/not available/);
    await sub();
  });

  it('without raised limits is the shared polite gate', async () => {
    const gate = runGate(table, polite, null)!;
    await gate.acquire('other.example');
    await expect(gate.acquire('other.example')).rejects.toThrow(/not available/);
  });
});
