import { api, lazyContract, loadOnce } from './pipeline/api.js';
import { rateLimited } from '../core/errors.js';

// The MCP SDK (and the tools built on it) load on the first request, not at module init: its
// types.js calls zod at its own top level, and in the bundle zod is initialised lazily, so loading
// the SDK at init failed ("t is not a constructor"). Loaded here, zod is ready. Also keeps the SDK
// out of the handler's init time. test/integration/lambda (bundled mcp.post) covers it.
const mcp = () =>
  Promise.all([import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), import('../core/mcp/mcp-tools.js')]).then(([t, tools]) => ({
    Transport: t.WebStandardStreamableHTTPServerTransport,
    buildMcpServer: tools.buildMcpServer,
  }));

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('./egress.js'), import('./api-robots.js')]));

/** Stateless Streamable HTTP MCP endpoint: a fresh server per request, JSON responses. */
export const handler = api(lazyContract('mcp.post', () => import('./contracts/service.js').then((m) => m.contracts['mcp.post'])), async (req) => {
  const [{ apiGuard }, { apiRobots }] = await core();
  // A JSON-RPC batch is one HTTP request but many calls (issue 19 finding 3): the pipeline took
  // one rate-limit token for the request, every further message takes one more, before any of
  // them runs. A long-polling get_run is a message like any other. Denied = the whole batch is
  // refused (429); the tokens already taken stay spent, as the calls sent one by one would have.
  const extra = Array.isArray(req.body) ? req.body.length - 1 : 0;
  const { tenant_id, limits } = req.tenant;
  for (let i = 0; i < extra; i++) {
    const d = await req.deps.rateLimiter.take(tenant_id, 'api', limits.rate_requests, limits.rate_seconds, req.now);
    if (!d.allowed) throw rateLimited(d.retryAfterSeconds);
  }
  const { Transport, buildMcpServer } = await mcp();
  const called: string[] = [];
  const server = buildMcpServer({ deps: req.deps, tenant: req.tenant, scopes: req.principal.scopes, principal: req.principal, origin: req.origin, guard: apiGuard(req.deps.config), robots: apiRobots(req.deps.config), called });
  const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && k !== 'content-length') headers.set(k, v);
  if (!headers.get('accept')?.includes('text/event-stream')) headers.set('accept', 'application/json, text/event-stream');
  const res = await transport.handleRequest(new Request(`${req.origin}/mcp`, { method: 'POST', headers, body: JSON.stringify(req.body) }));
  const body = await res.text();
  await server.close();
  req.setResource(called.length ? called.map((n) => `tool:${n}`).join(',') : 'mcp');
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => (out[k] = v));
  return { status: res.status, raw: body, headers: { 'content-type': out['content-type'] ?? 'application/json' } };
});
