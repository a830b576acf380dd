import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Event } from './types.js';

/**
 * The pipeline speaks the HTTP API's payload v2. Streamed routes are served by a REST API (the
 * only API Gateway flavour that streams Lambda responses), whose proxy integration sends the v1
 * payload: this turns it into the v2 event the same route would get from the HTTP API. A v2
 * event (the HTTP API, the local server) passes through unchanged.
 */
export function toHttpApiEvent(e: Event | APIGatewayProxyEvent): Event {
  if ((e as Event).version === '2.0' || !('httpMethod' in e)) return e as Event;
  const headers: Record<string, string> = {};
  // API Gateway v2 lower-cases names and joins repeated headers with commas.
  for (const [k, v] of Object.entries(e.multiValueHeaders ?? {})) if (v?.length) headers[k.toLowerCase()] = v.join(',');
  for (const [k, v] of Object.entries(e.headers ?? {})) if (v !== undefined && !(k.toLowerCase() in headers)) headers[k.toLowerCase()] = v;
  const cookies = headers.cookie?.split(';').map((c) => c.trim()).filter(Boolean);
  delete headers.cookie;
  const multiQuery = e.multiValueQueryStringParameters ?? Object.fromEntries(Object.entries(e.queryStringParameters ?? {}).map(([k, v]) => [k, v === undefined ? [] : [v]]));
  const query: Record<string, string> = {};
  const raw = new URLSearchParams();
  for (const [k, vs] of Object.entries(multiQuery)) {
    for (const v of vs ?? []) raw.append(k, v);
    if (vs?.length) query[k] = vs.join(',');
  }
  const routeKey = `${e.httpMethod} ${e.resource}`;
  const ctx = e.requestContext;
  return {
    version: '2.0',
    routeKey,
    rawPath: e.path,
    rawQueryString: raw.toString(),
    cookies: cookies?.length ? cookies : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: e.pathParameters ?? undefined,
    requestContext: {
      accountId: ctx.accountId, apiId: ctx.apiId, domainName: ctx.domainName ?? headers.host ?? '', domainPrefix: ctx.domainPrefix ?? '',
      http: { method: e.httpMethod, path: e.path, protocol: ctx.protocol, sourceIp: ctx.identity?.sourceIp ?? '', userAgent: ctx.identity?.userAgent ?? headers['user-agent'] ?? '' },
      requestId: ctx.requestId, routeKey, stage: ctx.stage, time: new Date(ctx.requestTimeEpoch).toUTCString(), timeEpoch: ctx.requestTimeEpoch,
    },
    body: e.body ?? undefined,
    isBase64Encoded: e.isBase64Encoded,
  };
}
