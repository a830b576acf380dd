import { z } from 'zod';
import { routes } from '../routes.js';
import { docs } from './schemas/registry.js';
import { errorSchema } from './schemas/common.js';
import { SERVICE_VERSION } from '../core/service-info.js';

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid request (code invalid_request, invalid_schedule, target_forbidden or target_not_authorized)',
  '401': 'Missing or invalid API key',
  '402': 'Billing issue or quota exhausted',
  '403': 'The key lacks the scope',
  '404': 'Not found',
  '429': 'Rate limited; see Retry-After',
  '500': 'Unexpected error',
};

const json = (s: z.ZodType, io: 'input' | 'output') => {
  const out = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};

let cache: { origin: string; doc: unknown } | undefined;

/** OpenAPI 3.1, generated from the route table and the same zod schemas that validate requests. */
export function openApiDocument(origin: string) {
  if (cache?.origin === origin) return cache.doc;
  const paths: Record<string, Record<string, unknown>> = {};
  // The console's static files are not part of the API.
  for (const r of routes.filter((x) => !x.id.startsWith('console.') && x.method !== 'ANY')) {
    const d = docs[r.id];
    const parameters: unknown[] = [];
    for (const m of r.path.matchAll(/\{(\w+)\+?\}/g)) parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
    if (d?.query) {
      const qs = json(d.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(qs.properties ?? {}))
        parameters.push({ name, in: 'query', required: qs.required?.includes(name) ?? false, schema });
    }
    const op: Record<string, unknown> = {
      operationId: r.id,
      summary: d?.summary ?? r.id,
      tags: [r.path.split('/')[r.path.startsWith('/dashboard') ? 3 : 2] ?? 'service'],
      parameters,
      responses: {
        [String(d?.status ?? 200)]: { description: 'Success', ...(d?.response ? { content: { 'application/json': { schema: json(d.response, 'output') } } } : {}) },
        ...Object.fromEntries(
          Object.entries(ERROR_STATUSES)
            .filter(([s]) => r.scope !== null || !['401', '402', '403', '429'].includes(s))
            .map(([s, description]) => [s, { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
        ),
      },
    };
    if (r.scope !== null) op.security = [{ bearerAuth: [] }];
    if (r.scope && r.scope !== 'authenticated') op['x-required-scope'] = r.scope;
    if (d?.body) op.requestBody = { required: true, content: { 'application/json': { schema: json(d.body, 'input') } } };
    if (r.creates) op.parameters = [...parameters, { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }];
    (paths[r.path] ??= {})[r.method.toLowerCase()] = op;
  }
  const doc = {
    openapi: '3.1.0',
    info: { title: 'Gleaner API', version: SERVICE_VERSION, description: 'Governed, multi-tenant web scraping and data collection service.' },
    servers: [{ url: origin }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: glr_…' } },
      schemas: { Error: json(errorSchema, 'output') },
    },
  };
  cache = { origin, doc };
  return doc;
}
