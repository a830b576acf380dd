import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Route } from '../routes.js';
import { AppError } from '../core/errors.js';
import { MAX_BODY_BYTES } from '../http/pipeline/event.js';

/** 413 before the body is buffered: the declared length is checked first, a stream is cut off. */
export const payloadTooLarge = () => new AppError(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes`);

/**
 * Read a request body, but never more than `limit` bytes: a Content-Length above the limit is
 * refused before a byte is read, and a chunked body is cancelled as soon as it passes the limit,
 * so an unauthenticated 200 MB upload costs at most `limit` bytes of memory.
 */
export async function readBodyLimited(req: Request, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw payloadTooLarge();
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const TEXTUAL = /^(application\/(json|[\w.+-]*\+json|x-www-form-urlencoded|xml|x-ndjson)|text\/)/i;

/** Build the API Gateway HTTP API (payload v2) event the Lambda would receive for this request. */
export async function toApiGatewayEvent(req: Request, route: Route, pathParameters: Record<string, string>, sourceIp: string): Promise<APIGatewayProxyEventV2> {
  const url = new URL(req.url);
  const headers: Record<string, string> = {};
  req.headers.forEach((v, k) => {
    if (k !== 'cookie') headers[k] = v;
  });
  const cookies = req.headers.get('cookie')?.split(';').map((c) => c.trim()).filter(Boolean);
  const query: Record<string, string> = {};
  url.searchParams.forEach((v, k) => {
    query[k] = k in query ? `${query[k]},${v}` : v;
  });
  let body: string | undefined;
  let isBase64Encoded = false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const buf = await readBodyLimited(req);
    if (buf.length) {
      if (TEXTUAL.test(req.headers.get('content-type') ?? '')) body = buf.toString('utf8');
      else {
        body = buf.toString('base64');
        isBase64Encoded = true;
      }
    }
  }
  const now = new Date();
  return {
    version: '2.0',
    routeKey: `${route.method} ${route.path}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    requestContext: {
      accountId: 'local', apiId: 'local', domainName: url.host, domainPrefix: url.hostname.split('.')[0]!,
      http: { method: req.method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp, userAgent: req.headers.get('user-agent') ?? '' },
      requestId: randomUUID(), routeKey: `${route.method} ${route.path}`, stage: '$default',
      time: now.toUTCString(), timeEpoch: now.getTime(),
    },
    body,
    isBase64Encoded,
  };
}

/** Turn the Lambda's structured result into a Fetch Response. */
export function fromApiGatewayResult(r: APIGatewayProxyStructuredResultV2 | string | undefined): Response {
  if (r === undefined || typeof r === 'string') return new Response(r ?? '', { status: 200, headers: { 'content-type': 'application/json' } });
  const headers = new Headers();
  for (const [k, v] of Object.entries(r.headers ?? {})) headers.set(k, String(v));
  for (const c of r.cookies ?? []) headers.append('set-cookie', c);
  const status = r.statusCode ?? 200;
  const body = status === 204 || status === 304 ? null : r.isBase64Encoded ? Buffer.from(r.body ?? '', 'base64') : (r.body ?? '');
  return new Response(body, { status, headers });
}

/** '/v1/runs/{id}' -> '/v1/runs/:id'; '{proxy+}' -> a greedy parameter. */
export const toHonoPath = (p: string) => p.replace(/\{(\w+)\+\}/g, ':$1{.+}').replace(/\{(\w+)\}/g, ':$1');
