import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { routes, workers, SCOPES } from '../../../functions/routes.js';
import { allContracts } from '../../../functions/http/contracts/index.js';

describe('the route table', () => {
  it('has unique ids and unique method+path pairs', () => {
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    expect(new Set(routes.map((r) => `${r.method} ${r.path}`)).size).toBe(routes.length);
  });

  it.each(routes.map((r) => [r.id, r] as const))('%s: handler file exists and exports handler', async (_id, r) => {
    expect(existsSync(r.handler), r.handler).toBe(true);
    const mod = await import(`../../../${r.handler}`);
    expect(typeof mod.handler).toBe('function');
  });

  it('has one contract per route row and no contract without a row (the OpenAPI source), with known scopes', () => {
    for (const r of routes) {
      expect(allContracts[r.id], r.id).toBeDefined();
      if (r.scope && r.scope !== 'authenticated') expect(SCOPES).toContain(r.scope);
    }
    expect(Object.keys(allContracts).sort()).toEqual(routes.map((r) => r.id).sort());
  });

  it.each(workers.map((w) => [w.id, w] as const))('worker %s exists and exports handler and worker', async (_id, w) => {
    const mod = await import(`../../../${w.handler}`);
    expect(typeof mod.handler).toBe('function');
    expect(typeof mod.worker.handle).toBe('function');
  });
});
