import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../functions/http/openapi.js';
import { routes } from '../../../functions/routes.js';

type Op = { operationId: string; parameters: Array<{ name: string; in: string }>; responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, { required?: boolean }> }>; requestBody?: unknown; security?: unknown[] };
const doc = openApiDocument('https://gleaner.test') as { openapi: string; paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> } };
const ops = Object.entries(doc.paths).flatMap(([path, m]) => Object.entries(m).map(([method, op]) => ({ path, method, op, route: routes.find((r) => r.id === op.operationId)! })));

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists every route but the catch-all', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(ops.map((o) => o.op.operationId).sort()).toEqual(routes.filter((r) => r.method !== 'ANY').map((r) => r.id).sort());
  });

  it('declares every path parameter, a success response with a body or media type, and security (empty on public routes)', () => {
    for (const { path, method, op, route } of ops) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(op.parameters.filter((p) => p.in === 'path').map((p) => p.name), `${method} ${path}`).toEqual(names);
      const ok = Object.entries(op.responses).filter(([s]) => /^[23]/.test(s));
      expect(ok.length, op.operationId).toBeGreaterThan(0);
      for (const [s, r] of ok) if (!['204', '304', '202'].includes(s) || r.content) expect(r.content, `${op.operationId} ${s}`).toBeDefined();
      expect(op.security, op.operationId).toEqual(route.scope === null ? [] : route.surface === 'console' ? [{ bearerAuth: [] }, { consoleSession: [] }] : [{ bearerAuth: [] }]);
    }
    expect(doc.components.schemas.Error).toBeDefined();
    expect(doc.components.securitySchemes.consoleSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'gleaner_session' });
  });

  it('documents the pipeline statuses from the route row, with their headers', () => {
    for (const { op, route } of ops) {
      const s = Object.keys(op.responses);
      expect(s, op.operationId).toContain('500');
      if (route.scope !== null) {
        expect(s, op.operationId).toEqual(expect.arrayContaining(['401', '402', '403', '429']));
        expect(op.responses['401']!.headers!['WWW-Authenticate']!.required).toBe(true);
        expect(op.responses['429']!.headers!['Retry-After']!.required).toBe(true);
        expect(op.responses['403']!.headers!['RateLimit-Remaining']!.required).toBe(true);
      } else if (route.id === 'session.login') {
        // The one public route with its own throttle (login attempts per account and client).
        expect(op.responses['429']!.headers!['Retry-After']!.required).toBe(true);
      } else expect(s, op.operationId).not.toContain('429');
      if (route.creates) expect(s, op.operationId).toEqual(expect.arrayContaining(['409', '422']));
      if (['POST', 'PUT', 'PATCH'].includes(route.method)) expect(s, op.operationId).toEqual(expect.arrayContaining(['400', '413', '415']));
      for (const r of Object.values(op.responses)) expect(r.headers!['X-Request-Id']!.required, op.operationId).toBe(true);
    }
    const cancel = doc.paths['/v1/runs/{id}/cancel']!.post!;
    expect(Object.keys(cancel.responses)).toEqual(expect.arrayContaining(['202', '404', '409']));
  });

  it('describes request bodies from the same zod schemas that validate them (unknown fields rejected)', () => {
    const body = (doc.paths['/v1/queries']!.post!.requestBody as { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean } }> }).content['application/json']!.schema;
    expect(Object.keys(body.properties).sort()).toEqual(['limit', 'prompt', 'sources', 'time_window']);
    expect(body.required.sort()).toEqual(['prompt', 'sources']);
    expect(body.additionalProperties).toBe(false);
    expect(doc.paths['/mcp']!.post!.requestBody).toBeDefined();
  });

  it('declares the media types of exports, the docs page and the document itself', () => {
    expect(Object.keys(doc.paths['/v1/runs/{id}/results']!.get!.responses['200']!.content!)).toEqual(['application/json', 'application/x-ndjson', 'text/csv']);
    expect(Object.keys(doc.paths['/docs']!.get!.responses['200']!.content!)).toEqual(['text/html', 'text/javascript']);
    expect(Object.keys(doc.paths['/v1/openapi.json']!.get!.responses['200']!.content!)).toContain('application/json');
  });
});
