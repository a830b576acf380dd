import type { Writable } from 'node:stream';

/** What a streamed response starts with: Lambda sends it as the metadata before the body. */
export interface StreamPrelude {
  statusCode: number;
  headers: Record<string, string>;
  cookies?: string[];
}

/**
 * The two things a streaming handler needs from its runtime. On Lambda they are the runtime's
 * `awslambda` global; the local server (and the tests) supply their own, so handler code never
 * touches the global itself.
 */
export interface StreamingRuntime {
  /** Marks a `(event, responseStream, context)` function as a streaming handler. */
  streamify<F extends (...args: never[]) => Promise<void>>(fn: F): F;
  /** The response stream with its status and headers sent ahead of the body. */
  from(stream: Writable, prelude: StreamPrelude): Writable;
}

/** The shape of the Lambda Node.js runtime's global (only what is used here). */
interface AwsLambdaGlobal {
  streamifyResponse?(fn: unknown): unknown;
  HttpResponseStream?: { from(stream: Writable, metadata: Record<string, unknown>): Writable };
}

/** The Lambda runtime's streaming support, when running inside it (the `awslambda` global); else undefined. */
export function awsLambdaStreaming(g: { awslambda?: AwsLambdaGlobal } = globalThis as { awslambda?: AwsLambdaGlobal }): StreamingRuntime | undefined {
  const rt = g.awslambda;
  // Libraries put other things on the global too (Powertools' InvokeStore): only the runtime's
  // own streaming functions count.
  if (typeof rt?.streamifyResponse !== 'function' || typeof rt.HttpResponseStream?.from !== 'function') return undefined;
  return {
    streamify: <F>(fn: F) => rt.streamifyResponse!(fn) as F,
    from: (stream, prelude) => rt.HttpResponseStream!.from(stream, { ...prelude }),
  };
}
