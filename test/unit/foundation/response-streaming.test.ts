import { Writable } from 'node:stream';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { awsLambdaStreaming, type StreamingRuntime, type StreamPrelude } from '../../../functions/adapters/aws/lambda-streaming.js';
import { LocalResponseStream, localStreaming } from '../../../functions/adapters/local/local-response-stream.js';
import { streamingApi } from '../../../functions/http/pipeline/streaming.js';
import { toHttpApiEvent } from '../../../functions/http/pipeline/rest-event.js';
import type { ApiHandler } from '../../../functions/http/pipeline/api.js';
import type { Event, Result } from '../../../functions/http/pipeline/types.js';

const ctx = {} as Context;

/** A runtime that records the prelude and collects what is written after it. */
function recordingRuntime() {
  const seen: { prelude?: StreamPrelude; streamified: number } = { streamified: 0 };
  const runtime: StreamingRuntime = {
    streamify: (fn) => (seen.streamified++, fn),
    from: (stream, prelude) => ((seen.prelude = prelude), stream),
  };
  return { runtime, seen };
}
const sink = () => {
  const chunks: string[] = [];
  const w = new Writable({ write: (c, _e, cb) => (chunks.push(String(c)), cb()) });
  return { w, chunks };
};
const apiHandler = (result: Result): ApiHandler => Object.assign(async () => result, { contractId: 'runs.results' });
const v2: Event = {
  version: '2.0', routeKey: 'GET /v1/runs/{id}/results', rawPath: '/v1/runs/x/results', rawQueryString: '', headers: {},
  requestContext: { accountId: '1', apiId: 'a', domainName: 'd', domainPrefix: 'd', http: { method: 'GET', path: '/v1/runs/x/results', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'ua' }, requestId: 'r', routeKey: 'GET /v1/runs/{id}/results', stage: '$default', time: '', timeEpoch: 0 },
  isBase64Encoded: false,
};

describe('the awslambda adapter', () => {
  it('is absent outside the Lambda runtime, and when the global only carries other things (Powertools InvokeStore)', () => {
    expect(awsLambdaStreaming({})).toBeUndefined();
    expect(awsLambdaStreaming({ awslambda: {} })).toBeUndefined();
  });

  it("delegates to the runtime's streamifyResponse and HttpResponseStream.from", () => {
    const calls: unknown[] = [];
    const marked = Symbol('streaming');
    const rt = awsLambdaStreaming({
      awslambda: {
        streamifyResponse: (fn: unknown) => Object.assign(fn as object, { [marked]: true }),
        HttpResponseStream: { from: (s: Writable, meta: Record<string, unknown>) => (calls.push(meta), s) },
      },
    })!;
    const fn = rt.streamify(async () => undefined);
    expect((fn as unknown as Record<symbol, boolean>)[marked]).toBe(true);
    const { w } = sink();
    expect(rt.from(w, { statusCode: 200, headers: { 'content-type': 'text/csv' } })).toBe(w);
    expect(calls).toEqual([{ statusCode: 200, headers: { 'content-type': 'text/csv' } }]);
  });

  it('locally, the prelude resolves from `from`, or as 200 when the handler writes without one', async () => {
    const a = new LocalResponseStream();
    localStreaming.from(a, { statusCode: 404, headers: { 'content-type': 'application/json' } });
    expect(await a.prelude).toEqual({ statusCode: 404, headers: { 'content-type': 'application/json' } });
    const b = new LocalResponseStream();
    b.end('x');
    expect(await b.prelude).toEqual({ statusCode: 200, headers: {} });
  });
});

describe('streamingApi', () => {
  it('sends status and headers first, then the chunks in order; marks the handler and keeps its contract id', async () => {
    const { runtime, seen } = recordingRuntime();
    async function* body() {
      yield 'a\n';
      yield 'b\n';
    }
    const h = streamingApi(apiHandler({ statusCode: 200, headers: { 'content-type': 'application/x-ndjson' }, body: '', stream: body() }), runtime);
    expect([h.contractId, h.streaming]).toEqual(['runs.results', true]);
    expect(seen.streamified).toBe(1);
    const { w, chunks } = sink();
    await h(v2, w, ctx);
    expect(seen.prelude).toEqual({ statusCode: 200, headers: { 'content-type': 'application/x-ndjson' } });
    expect(chunks.join('')).toBe('a\nb\n');
  });

  it('writes a buffered result (an error before the first byte) as its status, headers and JSON body', async () => {
    const { runtime, seen } = recordingRuntime();
    const h = streamingApi(apiHandler({ statusCode: 404, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"code":"not_found"}' }), runtime);
    const { w, chunks } = sink();
    await h(v2, w, ctx);
    expect(seen.prelude?.statusCode).toBe(404);
    expect(chunks.join('')).toBe('{"code":"not_found"}');
  });

  it('breaks the transfer off when the body fails after its first byte', async () => {
    const { runtime } = recordingRuntime();
    async function* body() {
      yield 'a\n';
      throw new Error('store gone');
    }
    const h = streamingApi(apiHandler({ statusCode: 200, headers: {}, body: '', stream: body() }), runtime);
    const { w } = sink();
    await expect(h(v2, w, ctx)).rejects.toThrow('store gone');
    expect(w.destroyed).toBe(true);
  });

  it('pulls the body only as the client takes it (a held client holds the reader within a few chunks), and ends it when the client goes away', async () => {
    const { runtime } = recordingRuntime();
    let produced = 0;
    let ended = false;
    async function* body() {
      try {
        for (let i = 0; i < 1000; i++) {
          produced++;
          yield 'x'.repeat(100_000);
        }
      } finally {
        ended = true;
      }
    }
    const held: (() => void)[] = [];
    const slow = new Writable({ write: (_c, _e, cb) => held.push(cb) });
    const h = streamingApi(apiHandler({ statusCode: 200, headers: {}, body: '', stream: body() }), runtime);
    const done = h(v2, slow, ctx);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(held).toHaveLength(1);
    expect(produced).toBeLessThanOrEqual(3);
    // The client goes away: the reader is ended, not left waiting (no further page reads).
    slow.destroy();
    await done.catch(() => undefined);
    expect(ended).toBe(true);
    expect(produced).toBeLessThanOrEqual(3);
  });
});

describe('REST API payload (v1) to the pipeline event (v2)', () => {
  it('lower-cases headers, moves cookies, joins repeated values, and keeps path, query and caller', () => {
    const rest = {
      resource: '/v1/runs/{id}/results', path: '/v1/runs/run_1/results', httpMethod: 'GET',
      headers: { Authorization: 'Bearer k', Cookie: 'a=1; b=2', 'X-Forwarded-For': '1.1.1.1' },
      multiValueHeaders: { Authorization: ['Bearer k'], Cookie: ['a=1; b=2'], 'X-Forwarded-For': ['1.1.1.1', '2.2.2.2'] },
      queryStringParameters: { format: 'csv' }, multiValueQueryStringParameters: { format: ['csv'], tag: ['a', 'b'] },
      pathParameters: { id: 'run_1' }, stageVariables: null,
      requestContext: { accountId: '1', apiId: 'a', httpMethod: 'GET', path: '/api/v1/runs/run_1/results', protocol: 'HTTP/1.1', requestId: 'req', requestTimeEpoch: 1_700_000_000_000, resourcePath: '/v1/runs/{id}/results', stage: 'api', identity: { sourceIp: '203.0.113.9', userAgent: 'curl' } },
      body: null, isBase64Encoded: false,
    } as unknown as APIGatewayProxyEvent;
    const e = toHttpApiEvent(rest);
    expect(e).toMatchObject({
      version: '2.0', routeKey: 'GET /v1/runs/{id}/results', rawPath: '/v1/runs/run_1/results', rawQueryString: 'format=csv&tag=a&tag=b',
      cookies: ['a=1', 'b=2'], headers: { authorization: 'Bearer k', 'x-forwarded-for': '1.1.1.1,2.2.2.2' },
      queryStringParameters: { format: 'csv', tag: 'a,b' }, pathParameters: { id: 'run_1' },
      requestContext: { http: { method: 'GET', path: '/v1/runs/run_1/results', sourceIp: '203.0.113.9', userAgent: 'curl' }, requestId: 'req' },
    });
    expect(e.headers.cookie).toBeUndefined();
    expect(toHttpApiEvent(v2)).toBe(v2);
  });
});
