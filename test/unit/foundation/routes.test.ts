import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { routes, workers, SCOPES } from '../../../functions/routes.js';
import { docs } from '../../../functions/http/schemas/registry.js';

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

  it('documents every route (the OpenAPI source) and uses known scopes', () => {
    for (const r of routes) {
      expect(docs[r.id], r.id).toBeDefined();
      if (r.scope && r.scope !== 'authenticated') expect(SCOPES).toContain(r.scope);
    }
  });

  it.each(workers.map((w) => [w.id, w] as const))('worker %s exists and exports handler and worker', async (_id, w) => {
    const mod = await import(`../../../${w.handler}`);
    expect(typeof mod.handler).toBe('function');
    expect(typeof mod.worker.handle).toBe('function');
  });
});
