import { api } from './pipeline/api.js';
import { contracts } from './contracts/service.js';
import { apiGuard } from './egress.js';

// The MCP SDK (and the tools built on it) load on the first request, not at module init: its
// types.js calls zod at its own top level, and in the bundle zod is initialised lazily, so loading
// the SDK at init failed ("t is not a constructor"). Loaded here, zod is ready. Also keeps the SDK
// out of the handler's init time. test/integration/lambda (bundled mcp.post) covers it.
const mcp = () =>
  Promise.all([import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), import('../core/mcp/mcp-tools.js')]).then(([t, tools]) => ({
    Transport: t.WebStandardStreamableHTTPServerTransport,
    buildMcpServer: tools.buildMcpServer,
  }));

/** Stateless Streamable HTTP MCP endpoint: a fresh server per request, JSON responses. */
export const handler = api(contracts['mcp.post'], async (req) => {
  const { Transport, buildMcpServer } = await mcp();
  const called: string[] = [];
  const server = buildMcpServer({ deps: req.deps, tenant: req.tenant, scopes: req.principal.scopes, origin: req.origin, guard: apiGuard(req.deps.config), called });
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
