import type { Context } from 'aws-lambda';
import type * as z from 'zod';
import type { Route } from '../../routes.js';
import { deps } from '../../runtime.js';
import { newId } from '../../core/ids.js';
import { AppError, badRequest, rateLimited } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { outcomeFor } from '../../core/audit/audit.js';
import { beginIdempotent, finishIdempotent } from '../../core/limits/idempotency.js';
import { assertSameOrigin, assertSameOriginIfBrowser, authenticate, authorize, checkBilling } from './authenticate.js';
import { cookie, header, origin, parseJsonBody, rawBody, userAgent } from './event.js';
import { checkOrigin, viewerIp } from './edge.js';
import { toErrorResult, zodDetails } from './errors.js';
import { selectorTooComplex } from '../../core/limits/selector-limits.js';
import type { ApiRequest, ApiResult, Event, PipelineState, Result } from './types.js';
import type { Contract, Input } from '../contracts/contract.js';
import { markForeground } from '../../core/limits/foreground.js';
import type { RateDecision } from '../../core/limits/rate-limiter.js';
import { middlewareChain, type ChainRequest, type Middleware } from './middleware-chain.js';
import { lazy as loadOnce } from '../../adapters/aws/lazy.js';

/**
 * `loadOnce(() => import('../core/…'))` (the composition root's `lazy`): modules a handler needs
 * only once a request gets past authentication, imported then rather than at init (Lambda's Init
 * phase), so a cold start does not evaluate them (their zod schemas above all). In a CDK bundle
 * esbuild turns such an `import()` of a bundled module into a deferred evaluation of that module
 * (it stays in the one file), provided no module evaluated at init imports it statically:
 * test/cdk/api-cold-start.test.ts checks what each function evaluates at init.
 */
export { loadOnce };

/**
 * The function's own route, written into its Lambda bundle at build time
 * (lib/gleaner-function.ts `routeDefine`): the route table (84 rows) is then never loaded there.
 * Undefined when running the sources (`npm start`, tests) and for a handler serving several
 * routes: the table is imported on first use.
 */
declare const GLEANER_ROUTE: Route | undefined;
const builtRoute: Route | undefined = typeof GLEANER_ROUTE === 'undefined' ? undefined : GLEANER_ROUTE;
const routeTable = loadOnce(() => import('../../routes.js'));
const routeFor = async (id: string): Promise<Route> => (builtRoute?.id === id ? builtRoute : (await routeTable()).routeById(id));

type Req = ChainRequest<Event, Result, { gleaner?: PipelineState }>;
type MiddlewareObj = Middleware<Event, Result, { gleaner?: PipelineState }>;
/** The chain hands the core handler only the event; the per-request state is found through it. */
const stateByEvent = new WeakMap<Event, PipelineState>();
const st = (r: Req) => r.internal.gleaner!;

/** The header the web console sends with every call, so calls made there with a pasted key read as the console's. */
export const CLIENT_HEADER = 'x-gleaner-client';

/**
 * Where an audited call was made: a console user's calls (their session cookie) are the
 * console's, /v1 routes included; a key's API call sent by the console (it says so in
 * {@link CLIENT_HEADER}) is the console's too. Only a label: the principal, scopes and route
 * surface that decide access are unchanged, and MCP and scheduler calls keep their own.
 */
export function auditSurface(principalType: string | undefined, routeSurface: Route['surface'], client: string | undefined): Route['surface'] {
  if (principalType === 'user') return 'console';
  if (routeSurface === 'api' && client === 'console') return 'console';
  return routeSurface;
}

/** Request id, timing, response headers, error mapping and the one audit record per call. */
const lifecycle = (routeId: string): MiddlewareObj => {
  const finish = async (request: Req) => {
    const s = st(request);
    const res = request.response!;
    res.headers = { ...res.headers, 'x-request-id': s.requestId, ...(s.rateHeaders ?? {}) };
    log.info('request', { request_id: s.requestId, route: s.route.id, status: res.statusCode, ms: Date.now() - s.startedAt, tenant_id: s.tenant?.tenant_id });
    if (s.tenant) {
      await s.deps.audit.record({
        ts: s.now.toISOString(),
        request_id: s.requestId,
        tenant_id: s.tenant.tenant_id,
        principal: { type: s.principal?.type ?? 'key', id: s.principal?.id ?? 'unknown', ...(s.principal?.email ? { email: s.principal.email } : {}) },
        // A console user's calls (their session cookie) are the console's, /v1 routes included.
        surface: auditSurface(s.principal?.type, s.route.surface, header(request.event, CLIENT_HEADER)),
        action: s.route.id,
        resource: s.resource,
        outcome: outcomeFor(res.statusCode ?? 200),
        status: res.statusCode ?? 200,
        ip: viewerIp(request.event),
        user_agent: userAgent(request.event),
      }).catch((err) => log.error('audit write failed', { err, request_id: s.requestId }));
    }
  };
  return {
    before: async (request: Req) => {
      const d = await deps();
      const supplied = header(request.event, 'x-request-id');
      const state: PipelineState = {
        requestId: supplied && /^[\w.-]{8,128}$/.test(supplied) ? supplied : newId('req'),
        startedAt: Date.now(),
        route: await routeFor(routeId),
        resource: null,
        deps: d,
        now: d.clock.now(),
      };
      request.internal.gleaner = state;
      stateByEvent.set(request.event, state);
    },
    after: async (request: Req) => finish(request),
    onError: async (request: Req) => {
      const s = request.internal.gleaner;
      if (!s) {
        request.response = toErrorResult(request.error, 'req_unknown');
        return;
      }
      const unauthenticated = request.error instanceof AppError && request.error.status === 401;
      if (unauthenticated)
        log.security('unauthenticated request', { request_id: s.requestId, route: s.route.id, ip: viewerIp(request.event), reason: (request.error as Error).message });
      request.response = toErrorResult(request.error, s.requestId);
      // RFC 9110 §11.6.1: a 401 names the scheme the client should use.
      if (unauthenticated) request.response.headers = { ...request.response.headers, 'www-authenticate': 'Bearer realm="gleaner"' };
      await finish(request);
    },
  };
};

/** How long an API request counts as interactive work (core/limits/foreground.ts). */
const REQUEST_FOREGROUND_MS = 250;

/** Auth (401), scope (403), billing (402), rate limit (429) and Idempotency-Key. */
const guard = (): MiddlewareObj => ({
  before: async (request: Req) => {
    const s = st(request);
    // The console login is public but sets the cookie: it passes the same-origin check too.
    if (s.route.id === 'session.login') assertSameOriginIfBrowser(request.event, origin(request.event, s.deps.config.publicUrl));
    if (s.route.scope === null) return; // public route
    const { principal, tenant } = await authenticate(request.event, s.route, s.deps, s.now);
    s.principal = principal;
    s.tenant = tenant;
    // Another tenant's crawl on this process lets the request's first moments go first (a
    // long-poll's waiting is not work, so the mark ends by itself).
    markForeground(`req:${s.requestId}`, tenant.tenant_id, REQUEST_FOREGROUND_MS);
    // The limiter runs before scope and billing checks, so a 403 or 402 carries the RateLimit
    // headers too and a key cannot probe scopes faster than its limit.
    const rateHeaders = (d: RateDecision) => ({ 'ratelimit-limit': String(d.limit), 'ratelimit-remaining': String(d.remaining), 'ratelimit-reset': String(d.resetSeconds) });
    // A bucket this process already knows is empty: refused now, before any read (a client
    // hammering past its limit costs its audit record only).
    const known = s.deps.rateLimiter.knownDenial(tenant.tenant_id, 'api', tenant.limits.rate_requests, tenant.limits.rate_seconds, s.now);
    if (known) {
      s.rateHeaders = rateHeaders(known);
      throw rateLimited(known.retryAfterSeconds);
    }
    // A call that arrives while this process's reservation for the bucket is at the table waits
    // for its answer (take), and is refused with it when the bucket is empty: its read waits too.
    // At each refill of an empty bucket every connection's call used to start its read alongside
    // and drop it: up to one wasted query per connection, each interval, on the hot path.
    const queued = s.deps.rateLimiter.reservationPending(tenant.tenant_id, 'api', tenant.limits.rate_requests, tenant.limits.rate_seconds);
    const rate = s.deps.rateLimiter
      .take(tenant.tenant_id, 'api', tenant.limits.rate_requests, tenant.limits.rate_seconds, s.now)
      .then((d) => {
        s.rateHeaders = rateHeaders(d);
        if (!d.allowed) throw rateLimited(d.retryAfterSeconds);
      });
    // A safe read may run alongside the limiter's own write; its result is dropped if denied.
    if (request.event.requestContext.http.method === 'GET' && !queued) {
      rate.catch(() => undefined); // awaited in after/onError; never an unhandled rejection
      s.pendingRate = rate;
    } else await rate;
    // A cookie (console) request that changes state must come from the console's own origin (CSRF).
    if (principal.type === 'user') assertSameOrigin(request.event, origin(request.event, s.deps.config.publicUrl));
    authorize(principal, s.route);
    checkBilling(tenant);
    const idem = header(request.event, 'idempotency-key');
    if (idem !== undefined && s.route.creates && s.route.method === 'POST') {
      const start = await beginIdempotent(s.deps.table, tenant.tenant_id, idem, 'POST', request.event.rawPath, rawBody(request.event), s.now, { timeoutSeconds: s.route.timeoutSeconds });
      if (start.kind === 'replay') s.replay = { statusCode: start.response.status, headers: { ...start.response.headers, 'idempotent-replayed': 'true' }, body: start.response.body };
      else s.idempotencyKey = idem;
    }
  },
  after: async (request: Req) => {
    const s = st(request);
    if (s.pendingRate) await s.pendingRate;
    if (s.idempotencyKey && s.tenant) {
      const r = request.response!;
      await finishIdempotent(s.deps.table, s.tenant.tenant_id, s.idempotencyKey, { status: r.statusCode ?? 200, body: String(r.body ?? ''), headers: (r.headers ?? {}) as Record<string, string> });
    }
  },
  onError: async (request: Req) => {
    const s = request.internal.gleaner;
    // A GET that failed while its rate-limit decision was pending: a denial wins (429).
    if (s?.pendingRate) {
      const denied = await s.pendingRate.then(() => undefined, (e: Error) => e);
      s.pendingRate = undefined;
      if (denied) request.error = denied;
    }
    if (s?.idempotencyKey && s.tenant) {
      // Release or store the claim so a retry is not stuck "in flight"; the lifecycle maps the error.
      const r = toErrorResult(request.error, s.requestId);
      await finishIdempotent(s.deps.table, s.tenant.tenant_id, s.idempotencyKey, { status: r.statusCode!, body: String(r.body), headers: (r.headers ?? {}) as Record<string, string> }).catch(() => undefined);
    }
  },
});

const safeDecode = (v: string) => {
  try {
    return decodeURIComponent(v);
  } catch {
    throw badRequest('The path contains an invalid percent-encoding');
  }
};

const validate = <T extends z.ZodType>(schema: T | undefined, value: unknown, where: 'body' | 'query' | 'params'): z.infer<T> => {
  if (!schema) {
    if (where === 'body' && value !== undefined && !(typeof value === 'object' && value && Object.keys(value).length === 0))
      throw badRequest('This endpoint takes no request body');
    return value as z.infer<T>;
  }
  const r = schema.safeParse(value);
  if (!r.success) throw selectorTooComplex(r.error.issues, where) ?? badRequest(`The request ${where === 'params' ? 'path' : where} is not valid`, zodDetails(r.error, where));
  return r.data;
};

const serialise = (r: ApiResult | void): Result => {
  const res = r ?? {};
  const status = res.status ?? (res.body === undefined && res.raw === undefined && res.stream === undefined ? 204 : 200);
  if (res.stream !== undefined) return { statusCode: status, headers: { 'content-type': 'application/octet-stream', ...res.headers }, body: '', stream: res.stream };
  if (res.raw !== undefined) return { statusCode: status, headers: { 'content-type': 'text/plain; charset=utf-8', ...res.headers }, body: res.raw };
  if (res.body === undefined) return { statusCode: status, headers: res.headers ?? {}, body: '' };
  return { statusCode: status, headers: { 'content-type': 'application/json; charset=utf-8', ...res.headers }, body: JSON.stringify(res.body) };
};

/**
 * A route's contract named by its id now and built on first use: `load` imports the contract's
 * group module (which builds its zod schemas) only when a request needs the schemas, that is after
 * authentication (an unauthenticated request is answered 401 without them), so a cold start does
 * not build them. See `lazyContract`.
 */
export interface LazyContract<C extends Contract<any, any, any>> {
  id: C['id'];
  load: () => Promise<C>;
}

/**
 * `lazyContract('runs.get', () => import('../contracts/runs.js').then((m) => m.contracts['runs.get']))`:
 * the loader is called once (a failed load is retried on the next request), and the loaded
 * contract must carry the id it was named by. The handler's input types are inferred from the
 * loader's type as from the contract itself.
 */
export function lazyContract<C extends Contract<any, any, any>>(id: C['id'], load: () => Promise<C>): LazyContract<C> {
  return {
    id,
    load: loadOnce(() =>
      load().then((c) => {
        if (c.id !== id) throw new Error(`contract ${id} loaded as ${c.id}`);
        return c;
      }),
    ),
  };
}

const isLazy = <C extends Contract<any, any, any>>(c: C | LazyContract<C>): c is LazyContract<C> => typeof (c as LazyContract<C>).load === 'function';

/** The request a contract's handler sees: inputs already validated by the contract's schemas. */
export type ContractRequest<C extends Contract<any, any, any>> = ApiRequest<Input<C['body']>, Input<C['query']>, Input<C['params']>>;

/** A handler built by `api()`; `contractId` lets a test check each route row runs its own contract. */
export type ApiHandler = ((event: Event, context: Context) => Promise<Result>) & { contractId: string };

/**
 * Build a Lambda handler for one route from its contract: the middleware chain (middy's lifecycle) + shared middleware + the
 * contract's zod schemas + one core call. The same exported handler serves API Gateway on AWS
 * and the local server; the OpenAPI document is generated from the same contract.
 */
export function api<C extends Contract<any, any, any>>(contract: C | LazyContract<C>, fn: (req: ContractRequest<C>) => Promise<ApiResult | void>): ApiHandler {
  // A lazy contract is loaded by the first request that reaches the core call; then used as is.
  let loaded: C | undefined = isLazy(contract) ? undefined : contract;
  const h = middlewareChain<Event, Result, { gleaner?: PipelineState }>(
    [
      lifecycle(contract.id),
      { before: (request: Req) => checkOrigin(request.event, st(request).deps.config) }, // 403 unless via CloudFront (aws mode)
      guard(),
    ],
    async (event: Event) => runCore(event, (loaded ??= await (contract as LazyContract<C>).load()), fn),
    () => ({}),
  );
  return Object.assign((event: Event, context: Context) => h(event, context), { contractId: contract.id });
}

async function runCore<C extends Contract<any, any, any>>(event: Event, contract: C, fn: (req: ContractRequest<C>) => Promise<ApiResult | void>): Promise<Result> {
  const s = stateByEvent.get(event);
  if (!s) throw new Error(`pipeline state missing for ${contract.id}`);
  if (s.replay) return s.replay;
  if (!contract.ignoresInput) parseInputFromEvent(event, s);
  const req: ContractRequest<C> = {
    body: contract.ignoresInput ? undefined : validate(contract.body, s.body, 'body'),
    query: contract.ignoresInput ? {} : validate(contract.query, s.query ?? {}, 'query'),
    params: validate(contract.params, s.params ?? {}, 'params'),
    headers: event.headers ?? {},
    method: event.requestContext.http.method,
    path: event.rawPath,
    route: s.route,
    requestId: s.requestId,
    principal: s.principal!,
    tenant: s.tenant!,
    deps: s.deps,
    now: s.now,
    clientIp: viewerIp(event),
    origin: origin(event, s.deps.config.publicUrl),
    cookie: (n) => cookie(event, n),
    setResource: (r) => {
      s.resource = r;
    },
  };
  const result = await fn(req);
  if (result?.stream) result.stream = await primed(result.stream);
  return serialise(result);
}

/**
 * Reads a streamed body's first chunk now, inside the pipeline, so an error in it (a missing
 * page, a store failure) is mapped like any other; the rest is read as the client takes it.
 */
async function primed(stream: AsyncIterable<string>): Promise<AsyncIterable<string>> {
  const it = stream[Symbol.asyncIterator]();
  const first = await it.next();
  return (async function* () {
    try {
      if (first.done) return;
      yield first.value;
      for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
    } finally {
      // A client that goes away ends the wrapper early: end the reader too (no further page reads).
      await it.return?.();
    }
  })();
}

function parseInputFromEvent(e: Event, s: PipelineState) {
  s.body = ['POST', 'PUT', 'PATCH'].includes(e.requestContext.http.method) ? parseJsonBody(e) : undefined;
  s.query = e.queryStringParameters ?? {};
  s.params = Object.fromEntries(Object.entries(e.pathParameters ?? {}).map(([k, v]) => [k, v === undefined ? v : safeDecode(v)]));
}
