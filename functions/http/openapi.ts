import * as z from 'zod';
import { routes, type Route } from '../routes.js';
import { allContracts } from './contracts/index.js';
import type { Contract, HeaderName } from './contracts/contract.js';
import { errorSchema } from './schemas/common.js';
import { SERVICE_VERSION } from '../core/service-info.js';

/**
 * OpenAPI 3.1, generated from the route table (method, path, scope, creates) and each route's
 * contract (the same zod schemas `api()` validates with). Statuses the shared pipeline adds are
 * derived from the route row here, once, so every operation documents every status it can return.
 */

const json = (s: z.ZodType, io: 'input' | 'output') => {
  const out = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request: `invalid_request` (with `details` per field), `target_forbidden`, `target_not_authorized`, …',
  401: 'Missing, invalid, revoked or expired API key or console session',
  402: 'Billing is not active (`payment_required`) or a monthly quota is used up (`quota_exhausted`)',
  403: 'The key lacks the scope this operation needs',
  404: 'Not found',
  405: 'Method not allowed on this path; `Allow` lists the methods it takes',
  409: 'An earlier request with this Idempotency-Key is still in flight',
  413: 'The request body is larger than 1 MiB',
  415: 'The request body is not JSON (send Content-Type: application/json)',
  422: 'This Idempotency-Key was already used with a different request body',
  429: 'Rate limited; retry after `Retry-After` seconds',
  500: 'Unexpected error; quote the request id when reporting it',
};

/** Every response header the API sends (inlined where used: a $ref may not carry `required`). */
const HEADERS: Record<string, { description: string; schema: Record<string, unknown> }> = {
  'X-Request-Id': { description: 'Id of this request (also in error bodies and the audit log); a valid one sent by the client is echoed', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests allowed per window for this tenant', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  'WWW-Authenticate': { description: 'The authentication scheme to use: `Bearer realm="gleaner"`', schema: { type: 'string' } },
  Allow: { description: 'Methods this path takes', schema: { type: 'string' } },
  Location: { description: 'URL of the created or queued resource', schema: { type: 'string' } },
  'Content-Disposition': { description: 'Present for downloads: `attachment; filename="…"`', schema: { type: 'string' } },
  'Set-Cookie': { description: 'The HttpOnly console session cookie `gleaner_session`', schema: { type: 'string' } },
  ETag: { description: 'Entity tag of a static file (send it back in If-None-Match)', schema: { type: 'string' } },
  'Cache-Control': { description: 'Caching rules for this response', schema: { type: 'string' } },
  'Idempotent-Replayed': { description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
};
const RATE = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

const TAGS: Record<string, string> = {
  service: 'Service info, this document and the reference page',
  tenant: 'The calling key’s tenant: billing, limits, usage',
  scrapers: 'Built-in scrapers and published runbooks, with their input schemas',
  runs: 'Asynchronous scraping runs: start, poll, cancel, results, log, deliveries',
  scrape: 'Scrape one URL synchronously',
  runbooks: 'Declarative browser runbooks (goto, click, fill, extract, …)',
  captcha: 'CAPTCHA and challenge encounters (never solved) and the challenge policy',
  queries: 'Natural-language queries against social sources',
  storage: 'Stored JSON result files of queries and jobs',
  jobs: 'Recurring queries on a cron schedule',
  webhooks: 'Registered webhook endpoints and their delivery logs',
  mcp: 'The MCP agent endpoint (JSON-RPC over Streamable HTTP)',
  session: 'Console login session (HttpOnly cookie)',
  keys: 'API keys: create, rotate, revoke',
  secrets: 'Tenant secrets usable by runbook fill steps',
  sources: 'Credentials of social sources',
  settings: 'Tenant settings: target policy, webhook signing secret, bucket sync and retention',
  datasets: 'Console: collected data sets',
  monitoring: 'Console: the last 24 h at a glance',
  social: 'Console: social sources and their use',
  studio: 'Console: runbook editor catalogue',
  antidetect: 'Console: browser profiles (rendering settings; Gleaner always identifies itself)',
  audit: 'Console: the audit log',
  console: 'The web console’s static files',
};

const tagOf = (r: Route, c: Contract) => {
  if (c.tag) return c.tag;
  if (r.id.startsWith('console.')) return 'console';
  if (r.id.startsWith('docs.') || r.id === 'info.get' || r.id === 'openapi.get') return 'service';
  return r.path.split('/')[r.path.startsWith('/dashboard') ? 3 : 2] ?? 'service';
};

/** OpenAPI path template: greedy `{name+}` becomes `{name}` (the parameter may contain `/`). */
const docPath = (p: string) => p.replace(/\{(\w+)\+\}/g, '{$1}');

const headerRefs = (names: string[], required: string[] = []) =>
  Object.fromEntries(names.map((n) => [n, { ...HEADERS[n]!, required: required.includes(n) }]));

function errorStatuses(r: Route, c: Contract): number[] {
  const withBody = ['POST', 'PUT', 'PATCH'].includes(r.method);
  const s = new Set<number>([500]);
  if (c.params || c.query || c.body || withBody || r.path.includes('{')) s.add(400);
  if (withBody) [413, 415].forEach((x) => s.add(x));
  if (r.scope !== null) [401, 402, 403, 429].forEach((x) => s.add(x));
  if (r.creates) [409, 422].forEach((x) => s.add(x));
  for (const k of Object.keys(c.errors ?? {})) s.add(Number(k));
  return [...s].sort((a, b) => a - b);
}

function parameters(r: Route, c: Contract) {
  const out: Record<string, unknown>[] = [];
  const ps = c.params ? (json(c.params, 'input') as { properties?: Record<string, Record<string, unknown>> }).properties ?? {} : {};
  for (const m of r.path.matchAll(/\{(\w+)(\+?)\}/g)) {
    const greedy = m[2] === '+';
    out.push({ name: m[1], in: 'path', required: true, ...(greedy ? { description: 'May contain `/`' } : {}), schema: ps[m[1]!] ?? { type: 'string' } });
  }
  if (c.query) {
    const qs = json(c.query, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [name, schema] of Object.entries(qs.properties ?? {}))
      out.push({ name, in: 'query', required: qs.required?.includes(name) ?? false, ...(schema.description ? { description: schema.description } : {}), schema });
  }
  if (r.creates)
    out.push({ name: 'Idempotency-Key', in: 'header', required: false, description: 'Retry-safe creation: the same key and body within 24 h return the stored answer', schema: { type: 'string', minLength: 1, maxLength: 255 } });
  return out;
}

function operation(r: Route, c: Contract) {
  const keyed = r.scope !== null;
  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(c.success)) {
    const names = ['X-Request-Id', ...(keyed ? RATE : []), ...(spec.headers ?? []), ...(r.creates ? ['Idempotent-Replayed'] : [])];
    const content: Record<string, unknown> = {};
    if (spec.schema) content['application/json'] = { schema: json(spec.schema, 'output'), ...(spec.example !== undefined ? { example: spec.example } : {}) };
    for (const [type, m] of Object.entries(spec.media ?? {})) content[type] = { schema: m.schema, ...(m.example !== undefined ? { example: m.example } : {}) };
    responses[status] = {
      description: spec.description,
      headers: headerRefs(names, ['X-Request-Id', ...(keyed ? RATE : []), ...(spec.headers ?? []).filter((h: HeaderName) => h === 'Location' || h === 'Set-Cookie')]),
      ...(Object.keys(content).length ? { content } : {}),
    };
  }
  const errorBody = c.altError ? { anyOf: [{ $ref: '#/components/schemas/Error' }, json(c.altError, 'output')] } : { $ref: '#/components/schemas/Error' };
  for (const status of errorStatuses(r, c)) {
    // The limiter runs right after authentication: every keyed answer but 401 (and a 500 of the
    // limiter itself) carries the RateLimit headers.
    const rate = keyed && status !== 401 && status !== 500;
    const extra = status === 401 ? ['WWW-Authenticate'] : status === 429 ? ['Retry-After'] : [];
    responses[String(status)] = {
      description: c.errors?.[status] ?? ERROR_TEXT[status] ?? 'Error',
      headers: headerRefs(['X-Request-Id', ...(keyed ? RATE : []), ...extra], ['X-Request-Id', ...(rate ? RATE : []), ...extra]),
      content: { 'application/json': { schema: errorBody } },
    };
  }
  const op: Record<string, unknown> = {
    operationId: r.id,
    summary: c.summary,
    ...(c.description ? { description: c.description } : {}),
    tags: [tagOf(r, c)],
    parameters: parameters(r, c),
    responses,
    security: !keyed ? [] : r.surface === 'console' ? [{ bearerAuth: [] }, { consoleSession: [] }] : [{ bearerAuth: [] }],
  };
  if (r.scope && r.scope !== 'authenticated') op['x-required-scope'] = r.scope;
  if (c.body) {
    op.requestBody = {
      required: !c.bodyOptional,
      content: { 'application/json': { schema: json(c.body, 'input'), ...(c.requestExample !== undefined ? { example: c.requestExample } : {}) } },
    };
  }
  return op;
}

let cache: { origin: string; doc: unknown } | undefined;

/** OpenAPI 3.1, generated from the route table and the route contracts. */
export function openApiDocument(origin: string) {
  if (cache?.origin === origin) return cache.doc;
  const paths: Record<string, Record<string, unknown>> = {};
  const used = new Set<string>();
  for (const r of routes) {
    const c = allContracts[r.id];
    if (!c) throw new Error(`route ${r.id} has no contract`);
    if (c.hidden || r.method === 'ANY') continue;
    const op = operation(r, c);
    used.add((op.tags as string[])[0]!);
    (paths[docPath(r.path)] ??= {})[r.method.toLowerCase()] = op;
  }
  const errorRef = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'Gleaner API',
      version: SERVICE_VERSION,
      description:
        'Governed, multi-tenant web scraping and data collection service.\n\nAuthenticate with `Authorization: Bearer <API key>`. Errors are JSON `{code, message, request_id, details?}`. Lists take `?limit=` and `?cursor=` and answer `{data, next_cursor}`. Every response carries `X-Request-Id`; keyed responses carry `RateLimit-*`. A path no operation serves answers 404; a known path asked with another method answers 405 with `Allow`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Gleaner' },
    },
    servers: [{ url: origin }],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(TAGS).filter(([t]) => used.has(t)).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: `glr_…`' },
        consoleSession: { type: 'apiKey', in: 'cookie', name: 'gleaner_session', description: 'The web console’s HttpOnly session cookie, set by POST /dashboard/api/session' },
      },
      schemas: { Error: { ...json(errorSchema, 'output'), examples: [{ code: 'not_found', message: 'Run not found', request_id: 'req_01jd0000000000000000000000' }] } },
    },
    // What answers a request no operation declares (the catch-all route): not an operation, so
    // kept beside the paths for tools that check traffic against this document.
    'x-unmatched-responses': {
      NotFound: { description: 'No route for this path (any method)', headers: headerRefs(['X-Request-Id'], ['X-Request-Id']), content: errorRef },
      MethodNotAllowed: { description: ERROR_TEXT[405], headers: headerRefs(['X-Request-Id', 'Allow'], ['X-Request-Id', 'Allow']), content: errorRef },
    },
  };
  cache = { origin, doc };
  return doc;
}
