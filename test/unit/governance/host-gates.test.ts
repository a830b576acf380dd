import { describe, expect, it } from 'vitest';
import { runGate } from '../../../functions/core/governance/host-gates.js';
import { FakeGateTable } from './fake-gate-table.js';

// Issue 19 finding 1: a verified host's raised limits bind that host only. A verified
// attacker.example that redirects to victim.example must meet victim's polite gate.
describe('runGate', () => {
  const polite = { maxConcurrent: 1, minDelayMs: 0, maxWaitMs: 50, pollMs: 5 };
  const raised = { host: 'attacker.example', tenantId: 'ten_1', concurrency: 8, delayMs: 0 };

  it('gives the verified host its raised concurrency', async () => {
    const gate = runGate(new FakeGateTable(), polite, raised)!;
    const held = await Promise.all(Array.from({ length: 8 }, () => gate.acquire('attacker.example')));
    expect(held).toHaveLength(8);
  });

  it('keeps every other host at the polite limit, whoever redirected there', async () => {
    const gate = runGate(new FakeGateTable(), polite, raised)!;
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
    const gate = runGate(new FakeGateTable(), polite, null)!;
    await gate.acquire('attacker.example');
    await expect(gate.acquire('attacker.example')).rejects.toThrow(/not available/);
  });
});
