import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { api } from './pipeline/api.js';
import { contracts } from './contracts/service.js';
import { apiGuard } from './egress.js';
import { buildMcpServer } from '../core/mcp/mcp-tools.js';

/** Stateless Streamable HTTP MCP endpoint: a fresh server per request, JSON responses. */
export const handler = api(contracts['mcp.post'], async (req) => {
  const called: string[] = [];
  const server = buildMcpServer({ deps: req.deps, tenant: req.tenant, scopes: req.principal.scopes, origin: req.origin, guard: apiGuard(req.deps.config), called });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
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
