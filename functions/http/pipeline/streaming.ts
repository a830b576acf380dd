import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { awsLambdaStreaming, type StreamingRuntime } from '../../adapters/aws/lambda-streaming.js';
import { localStreaming } from '../../adapters/local/local-response-stream.js';
import { log } from '../../core/log.js';
import type { ApiHandler } from './api.js';
import { toHttpApiEvent } from './rest-event.js';
import type { Event } from './types.js';

/** A route handler that writes its response to a stream (routes rows with `stream: true`). */
export type StreamingApiHandler = ((event: Event | APIGatewayProxyEvent, responseStream: Writable, context: Context) => Promise<void>) & {
  contractId: string;
  streaming: true;
};

/**
 * Serve an `api()` handler as a streaming Lambda handler: the pipeline (auth, validation, the
 * core call, the first chunk of a streamed body) runs first, so every error up to then is the
 * usual `{code, message}` JSON with its status; then the status and headers go out and the body
 * is piped chunk by chunk, with backpressure (the core reads the next page only when the client
 * has taken the last). An error after the first byte can no longer change the status: the
 * stream is destroyed, so the client sees a broken transfer rather than a short file.
 */
export function streamingApi(h: ApiHandler, runtime: StreamingRuntime = awsLambdaStreaming() ?? localStreaming): StreamingApiHandler {
  const fn = async (event: Event | APIGatewayProxyEvent, responseStream: Writable, context: Context): Promise<void> => {
    const r = await h(toHttpApiEvent(event), context);
    const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k, String(v)]));
    const out = runtime.from(responseStream, { statusCode: r.statusCode ?? 200, headers, ...(r.cookies?.length ? { cookies: r.cookies } : {}) });
    const body: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array> = r.stream ?? [r.isBase64Encoded ? Buffer.from(r.body ?? '', 'base64') : (r.body ?? '')];
    try {
      await pipeline(Readable.from(body, { objectMode: false }), out);
    } catch (err) {
      // A client that stops reading (closed the download) is not a server fault.
      const gone = (err as NodeJS.ErrnoException)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
      (gone ? log.info : log.error)(gone ? 'streamed response: the client went away' : 'streamed response failed after its first byte', { err, route: h.contractId, request_id: headers['x-request-id'] });
      throw err;
    }
  };
  return Object.assign(runtime.streamify(fn), { contractId: h.contractId, streaming: true as const });
}
