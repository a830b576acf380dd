import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../functions/http/openapi.js';
import { routes } from '../../../functions/routes.js';

type Op = { operationId: string; parameters: Array<{ name: string; in: string }>; responses: Record<string, unknown>; requestBody?: unknown; security?: unknown };
const doc = openApiDocument('https://gleaner.example') as { openapi: string; paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, unknown> } };

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists every API route (not the console files or the catch-all)', () => {
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    const expected = routes.filter((r) => !r.id.startsWith('console.') && r.method !== 'ANY').map((r) => r.id);
    expect(ops.sort()).toEqual(expected.sort());
  });

  it('declares every path parameter, a success response, the error schema, and security on keyed routes', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(methods)) {
        expect(op.parameters.filter((p) => p.in === 'path').map((p) => p.name), `${method} ${path}`).toEqual(names);
        expect(Object.keys(op.responses).some((s) => s.startsWith('2')), `${method} ${path}`).toBe(true);
        const route = routes.find((r) => r.id === op.operationId)!;
        expect(Boolean(op.security), op.operationId).toBe(route.scope !== null);
        if (['POST', 'PUT', 'PATCH'].includes(route.method) && route.id !== 'mcp.post' && route.id !== 'runs.cancel' && route.id !== 'webhooks.retry' && route.id !== 'jobs.run') expect(op.requestBody, op.operationId).toBeDefined();
      }
    }
    expect(doc.components.schemas.Error).toBeDefined();
  });

  it('describes request bodies from the same zod schemas that validate them (unknown fields rejected)', () => {
    const body = (doc.paths['/v1/queries']!.post!.requestBody as { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean } }> }).content['application/json']!.schema;
    expect(Object.keys(body.properties).sort()).toEqual(['limit', 'prompt', 'sources', 'time_window']);
    expect(body.required.sort()).toEqual(['prompt', 'sources']);
    expect(body.additionalProperties).toBe(false);
  });
});
