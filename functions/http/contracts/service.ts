import * as z from 'zod';
import { defineContracts } from './contract.js';
import { tenantSchema } from '../../core/tenancy/tenants.js';

/** Contracts of info.get, openapi.get, docs.get, tenant.get, mcp.post, fallback. */

export const serviceInfoSchema = z.object({
  service: z.string(),
  what: z.string(),
  env: z.string(),
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  docs: z.string().nullable(),
  openapi: z.string().nullable(),
  auth: z.string(),
  surfaces: z.object({ product_api: z.string(), console_api: z.string(), console_ui: z.string(), mcp: z.string() }),
  quickstart: z.string(),
  rules: z.string(),
});
const jsonRpcId = z.union([z.string(), z.number().int(), z.null()]);
/** One JSON-RPC 2.0 message; the MCP transport checks the rest (a malformed one gets a JSON-RPC error). */
const jsonRpcMessage = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: jsonRpcId.optional(),
  method: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
});
export const mcpBody = z.union([jsonRpcMessage, z.array(jsonRpcMessage).min(1)]);
const jsonRpcResponse = z.looseObject({ jsonrpc: z.literal('2.0'), id: jsonRpcId, result: z.unknown().optional(), error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional() });
const jsonRpcError = z.looseObject({ jsonrpc: z.literal('2.0'), id: jsonRpcId.optional(), error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }) });
const text = { type: 'string' } as const;
/** `?asset=` names the page's one static file (the renderer); without it, the page itself. */
export const docsQuery = z.strictObject({ asset: z.enum(['api-reference.js']).optional() });

export const contracts = defineContracts({
  'info.get': {
    summary: 'Service info document (no key needed)',
    success: { 200: { description: 'What Gleaner is, where its docs are, how to authenticate', schema: serviceInfoSchema } },
  },
  'openapi.get': {
    summary: 'This OpenAPI 3.1 document',
    success: { 200: { description: 'The OpenAPI 3.1 document', media: { 'application/vnd.oai.openapi+json': { schema: { type: 'object' } }, 'application/json': { schema: { type: 'object' } } } } },
  },
  'docs.get': {
    summary: 'API reference page (HTML); with ?asset=api-reference.js, its renderer (served from here, no CDN)',
    description: 'The page is Scalar API Reference rendering this document, with navigation by tag. Its script is the same route with `?asset=api-reference.js`, so the page works offline under `script-src \'self\'`.',
    query: docsQuery,
    success: {
      200: { description: 'The reference page, or its script', media: { 'text/html': { schema: text }, 'text/javascript': { schema: text } }, headers: ['ETag', 'Cache-Control'] },
      304: { description: 'Not modified (If-None-Match matched the ETag of the script)', headers: ['ETag'] },
    },
  },
  'tenant.get': {
    summary: "The calling key's tenant: billing status, limits, target policy, usage",
    success: { 200: { description: 'The tenant', schema: tenantSchema.extend({ usage: z.object({ pages: z.number().int(), results: z.number().int(), model_tokens: z.number().int(), searches: z.number().int() }) }) } },
  },
  'mcp.post': {
    summary: 'MCP agent endpoint (JSON-RPC over Streamable HTTP, stateless); call the tool get_started first',
    description: 'Send one JSON-RPC 2.0 message (or a batch) with `Accept: application/json, text/event-stream`. Only POST: there are no server-initiated streams (GET) and no sessions (DELETE), so both answer 405.',
    tag: 'mcp',
    body: mcpBody,
    requestExample: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_started', arguments: {} } },
    success: {
      200: { description: 'The JSON-RPC response (or batch of responses)', schema: z.union([jsonRpcResponse, z.array(jsonRpcResponse)]) },
      202: { description: 'Accepted: the message was a notification or a response, nothing to answer' },
    },
    altError: jsonRpcError,
    errors: { 400: 'A malformed JSON-RPC message (JSON-RPC error body) or an invalid request', 406: 'Accept does not allow application/json (JSON-RPC error body)' },
  },
  fallback: {
    summary: 'Any unknown path: 404 not_found; an unsupported method on a known path: 405 with Allow',
    hidden: true,
    ignoresInput: true,
    success: {},
    errors: { 404: 'No such path', 405: 'The path exists but not with this method; Allow lists the methods it takes' },
  },

});
