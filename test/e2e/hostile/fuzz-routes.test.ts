import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

// No request in this suite may reach for the internet: every host name resolves to a private
// address, which the egress guard refuses at submit (loopback names keep working for the stores).
vi.mock('node:dns/promises', async (importOriginal) => {
  const orig = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (async (host: string, opts?: unknown) => {
    if (host === 'localhost') return orig.lookup(host, opts as never);
    const a = { address: '10.255.255.1', family: 4 };
    return (opts as { all?: boolean } | undefined)?.all ? [a] : a;
  }) as typeof orig.lookup;
  return { ...orig, lookup, default: { ...orig, lookup } };
});

const { startTestService } = await import('../../support/local-service.js');
const { routes, SCOPES } = await import('../../../functions/routes.js');
const { allContracts: docs } = await import('../../../functions/http/contracts/index.js');
const { createApiKey } = await import('../../../functions/core/tenancy/api-keys.js');
const { setLimits } = await import('../../../functions/core/tenancy/tenants.js');
const { keys } = await import('../../../functions/core/table-keys.js');
const { arbitraryFor, hostileValue } = await import('./schema-arbitrary.js');
type TestService = Awaited<ReturnType<typeof startTestService>>;
type Route = (typeof routes)[number];

/**
 * The hostile-input suite (issue 9): for every route in functions/routes.ts, bodies, query
 * strings and path parameters generated from the route's own schemas (mostly well-formed, with
 * hostile values mixed in), sent with the admin key, with a key holding only the route's scope,
 * and with no key. Every answer must be below 500; every error `{code, message, request_id}`; a
 * rejected write must leave the tenant's records exactly as they were; and the service must keep
 * answering between batches. GLEANER_FUZZ_RUNS sets the total number of cases (default 1,500).
 */
const TOTAL_RUNS = Number(process.env.GLEANER_FUZZ_RUNS ?? 1500);
const perRoute = Math.max(5, Math.ceil(TOTAL_RUNS / routes.length));
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let svc: TestService;
/** The tenant's records as of the last check; undefined once an accepted write may have changed them. */
let known: string | undefined;
const scopedKeys = new Map<string, string>();

beforeAll(async () => {
  svc = await startTestService();
  // Nothing submitted by the suite is ever executed: the workers stop, so no run, query or
  // delivery leaves the process; the suite is about the HTTP surface.
  svc.queue.stop();
  // Fuzzing is not about the rate limiter: lift the tenant's limit so cases reach validation.
  const tenant = (await svc.call('/v1/tenant')).body;
  await setLimits(svc.deps.table, svc.tenantId, { ...tenant.limits, rate_requests: 1_000_000, rate_seconds: 1 });
  for (const scope of SCOPES) {
    const k = await createApiKey(svc.deps.table, { tenantId: svc.tenantId, scopes: [scope], name: `fuzz ${scope}` }, new Date());
    scopedKeys.set(scope, k.api_key);
  }
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
});

const json = (s: z.ZodType | undefined) => (s ? (z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>) : undefined);

/** Everything a tenant owns, as stored: the tenant partition and its keys (counters excluded). */
async function snapshot(): Promise<string> {
  const out: string[] = [];
  const volatile = /^(RATE|USAGE|IDEM)#/;
  for (const spec of [{ pk: keys.tenantPk(svc.tenantId) }, { index: 'gsi1' as const, pk: keys.tenantKeysIndex(svc.tenantId) }]) {
    let cursor: string | undefined;
    do {
      const page = await svc.deps.table.query({ ...spec, cursor, limit: 500, consistent: !spec.index });
      for (const i of page.items) {
        if (volatile.test(String(i.sk))) continue;
        const { last_used_at: _, ...rest } = i; // touched by any authenticated call, accepted or not
        out.push(JSON.stringify(rest, Object.keys(rest).sort()));
      }
      cursor = page.cursor ?? undefined;
    } while (cursor);
  }
  return out.sort().join('\n');
}

/** Records added (+) or removed (-) between two snapshots. */
const diffLines = (a: string, b: string) => {
  const A = new Set(a.split('\n'));
  const B = new Set(b.split('\n'));
  return [...[...A].filter((x) => !B.has(x)).map((x) => `- ${x}`), ...[...B].filter((x) => !A.has(x)).map((x) => `+ ${x}`)];
};

/** encodeURIComponent, with lone surrogates replaced (they have no UTF-8 form to percent-encode). */
const encodeSegment = (v: string) => encodeURIComponent((v as string & { toWellFormed(): string }).toWellFormed());

const hostileSegment = fc.oneof(
  fc.constantFrom('..', '.', '%2e%2e', '%00', '%ff', 'a%2Fb', '~', 'x'.repeat(2000), '__proto__', '%F0%9F%98%80'),
  fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
);

/** One case: path, query, body, content type and which credential to use. */
function caseFor(route: Route) {
  const doc = docs[route.id] ?? { summary: '' };
  const params = json(doc.params) as { properties?: Record<string, unknown> } | undefined;
  const names = [...route.path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]!);
  const segment = (name: string) =>
    fc.oneof(
      { arbitrary: arbitraryFor(params?.properties?.[name] as never, 0).map((v) => encodeSegment(String(v))), weight: 3 },
      { arbitrary: hostileSegment, weight: 2 },
    );
  const path = fc.tuple(...names.map(segment)).map((vals) => names.reduce((p, n, i) => p.replace(new RegExp(`\\{${n}\\+?\\}`), vals[i] || 'x'), route.path));
  const queryArb = fc.oneof(
    { arbitrary: arbitraryFor(json(doc.query) as never, 1), weight: 3 },
    { arbitrary: fc.dictionary(fc.constantFrom('limit', 'cursor', 'status', 'wait', 'format', 'kind', 'x'), hostileValue, { maxKeys: 3 }), weight: 1 },
  ).map((q) => {
    const sp = new URLSearchParams();
    if (q && typeof q === 'object' && !Array.isArray(q))
      for (const [k, v] of Object.entries(q)) if (v !== undefined) sp.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    const s = sp.toString();
    return s ? `?${s}` : '';
  });
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method) || route.method === 'ANY';
  const bodyArb = hasBody
    ? fc.oneof(
        { arbitrary: arbitraryFor(json(doc.body) as never, 1).map((b) => ({ text: b === undefined ? undefined : JSON.stringify(b), type: 'application/json' })), weight: 8 },
        { arbitrary: fc.string({ maxLength: 200 }).map((t) => ({ text: t, type: 'application/json' })), weight: 1 },
        { arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', 'multipart/form-data').map((type) => ({ text: '{"a":1}', type })), weight: 1 },
      )
    : fc.constant({ text: undefined as string | undefined, type: 'application/json' });
  const who = fc.constantFrom<'admin' | 'scoped' | 'none'>('admin', 'admin', 'scoped', 'scoped', 'none');
  return fc.record({ path, query: queryArb, body: bodyArb, who });
}

function keyFor(route: Route, who: 'admin' | 'scoped' | 'none'): string | null {
  if (who === 'none') return null;
  if (who === 'scoped' && route.scope && route.scope !== 'authenticated') return scopedKeys.get(route.scope)!;
  if (who === 'scoped') return scopedKeys.get('runs:read')!;
  return svc.key;
}

const methodsOf = (r: Route) => (r.method === 'ANY' ? ['GET', 'POST', 'DELETE'] : [r.method]);

describe('hostile input on every route', () => {
  it('covers every route in the table', () => {
    expect(routes.length).toBeGreaterThan(60);
    for (const r of routes) expect(docs[r.id], `schemas for ${r.id}`).toBeDefined();
  });

  for (const route of routes) {
    it(`${route.method} ${route.path} (${route.id}): no 5xx, errors in shape, nothing stored on rejection`, async () => {
      const failures: string[] = [];
      known = undefined; // each batch starts from a fresh snapshot
      await fc.assert(
        fc.asyncProperty(caseFor(route), fc.constantFrom(...methodsOf(route)), async (c, method) => {
          const isWrite = WRITES.has(method);
          // The last snapshot stays valid until a write is accepted: one table read per write case.
          const before = isWrite ? (known ??= await snapshot()) : '';
          const headers: Record<string, string> = { accept: 'application/json' };
          const k = keyFor(route, c.who);
          if (k) headers.authorization = `Bearer ${k}`;
          if (c.body.text !== undefined) headers['content-type'] = c.body.type;
          const res = await fetch(svc.url + c.path + c.query, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : c.body.text, redirect: 'manual' });
          const text = await res.text();
          const where = `${method} ${c.path}${c.query} as ${c.who} -> ${res.status}: ${text.slice(0, 300)}`;
          if (res.status >= 500) failures.push(where);
          expect(res.status, where).toBeLessThan(500);
          if (res.status >= 400) {
            const body = JSON.parse(text);
            if (route.surface === 'mcp' && body?.jsonrpc === '2.0') {
              // Past authentication, MCP speaks JSON-RPC: its errors are `{error: {code, message}}`, the request id is in the header.
              expect(body.error, where).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
              expect(res.headers.get('x-request-id'), where).toMatch(/^[\w.-]{8,128}$/);
            } else expect(body, where).toMatchObject({ code: expect.any(String), message: expect.any(String), request_id: expect.stringMatching(/^[\w.-]{8,128}$/) });
            if (isWrite) {
              known = await snapshot();
              expect(diffLines(before, known), `stored something on a rejected ${where}`).toEqual([]);
            }
          } else known = undefined; // an accepted call may write, even a GET (lazily created settings)
        }),
        { numRuns: perRoute, endOnFailure: true },
      );
      expect(failures).toEqual([]);
      // The process stays responsive between batches.
      const health = await fetch(`${svc.url}/v1`);
      expect(health.status).toBe(200);
    });
  }
});
