import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { routes } from '../../../functions/routes.js';
import { allContracts } from '../../../functions/http/contracts/index.js';

/** Handler modules that serve more than one row (the console's index and its files). */
const shared = (handler: string) => routes.filter((r) => r.handler === handler).map((r) => r.id);

describe('route contracts', () => {
  it.each(routes.map((r) => [r.id, r] as const))('%s: its handler validates with its own contract', async (id, r) => {
    const src = readFileSync(r.handler, 'utf8');
    // The handler names its contract by id; a handler serving several rows names each.
    for (const rid of shared(r.handler)) expect(src, r.handler).toMatch(new RegExp(`contracts(\\['${rid.replace(/\./g, '\\.')}'\\]|\\.${rid.replace(/\./g, '\\.')}\\b)`));
    const mod = (await import(`../../../${r.handler}`)) as { handler: { contractId?: string } };
    if (shared(r.handler).length === 1) expect(mod.handler.contractId).toBe(id);
    expect(allContracts[id]!.id).toBe(id);
  });

  it.each([...new Set(routes.map((r) => r.handler))])('%s imports only its own group of contracts (cold start)', (handler) => {
    const imports = [...readFileSync(handler, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    expect(imports.filter((i) => /contracts\/index|schemas\/registry/.test(i)), handler).toEqual([]);
    expect(imports.filter((i) => i.includes('/contracts/')).length, handler).toBeLessThanOrEqual(1);
    // Only the two routes that serve the document build it.
    if (!/openapi-get|docs-get/.test(handler)) expect(imports.filter((i) => i.endsWith('/openapi.js')), handler).toEqual([]);
  });

  it('gives each group module only its own routes and no cross-group imports', () => {
    const GROUPS = readdirSync('functions/http/contracts').filter((f) => f.endsWith('.ts') && !['contract.ts', 'index.ts'].includes(f)).map((f) => f.slice(0, -3));
    expect(GROUPS.length).toBeGreaterThan(5);
    for (const g of GROUPS) {
      const src = readFileSync(`functions/http/contracts/${g}.ts`, 'utf8');
      expect(src).not.toMatch(new RegExp(`from '\\./(${[...GROUPS, 'index'].join('|')})\\.js'`));
    }
  });
});
