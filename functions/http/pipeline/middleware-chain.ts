import type { Context } from 'aws-lambda';

/**
 * The request a middleware chain passes along: the event, the Lambda context, the response once
 * there is one, the error being handled, and the chain's own per-request state.
 */
export interface ChainRequest<E, R, S> {
  event: E;
  context: Context;
  response: R | undefined;
  error: unknown;
  internal: S;
}

/** One middleware: any of before (in order), after (in reverse order), onError (in reverse order). */
export interface Middleware<E, R, S> {
  before?: (request: ChainRequest<E, R, S>) => unknown;
  after?: (request: ChainRequest<E, R, S>) => unknown;
  onError?: (request: ChainRequest<E, R, S>) => unknown;
}

/** How long before the function's own timeout the handler gives up, so its error is answered (and audited). */
export const TIMEOUT_EARLY_MS = 5;

/**
 * The middy lifecycle the API pipeline uses, as a function of its own: `before`s in order, the
 * handler, `after`s in reverse; an error anywhere clears the response and runs the `onError`s in
 * reverse, and is thrown on if none of them set a response. When the context can tell the time
 * left, a handler still running TIMEOUT_EARLY_MS before the function's timeout is answered with a
 * `TimeoutError` (mapped like any error) instead of being cut off by the runtime.
 *
 * Why not @middy/core itself: its module imports node:stream, node:stream/promises and
 * node:stream/web for response streaming, which every API function then loaded at init; our
 * streaming routes do their own streaming (pipeline/streaming.ts). The chain is the few lines of
 * middy's lifecycle the pipeline uses; middlewares do not end a request early by returning a value.
 */
export function middlewareChain<E, R, S>(
  middlewares: Middleware<E, R, S>[],
  handler: (event: E, context: Context) => Promise<R>,
  internal: () => S,
): (event: E, context: Context) => Promise<R> {
  const before = middlewares.flatMap((m) => (m.before ? [m.before] : []));
  const after = middlewares.flatMap((m) => (m.after ? [m.after] : [])).reverse();
  const onError = middlewares.flatMap((m) => (m.onError ? [m.onError] : [])).reverse();
  return async (event, context) => {
    const request: ChainRequest<E, R, S> = { event, context, response: undefined, error: undefined, internal: internal() };
    try {
      for (const m of before) await m(request);
      request.response = await withTimeoutEarly(handler(event, context), context);
      for (const m of after) await m(request);
    } catch (e) {
      request.response = undefined;
      request.error = e;
      for (const m of onError) await m(request);
      if (request.response === undefined) throw request.error;
    }
    return request.response;
  };
}

function withTimeoutEarly<R>(work: Promise<R>, context: Context | undefined): Promise<R> {
  const left = typeof context?.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : undefined;
  if (left === undefined || !Number.isFinite(left)) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error('[AbortError]: The operation was aborted.');
      err.name = 'TimeoutError';
      reject(err);
    }, Math.max(0, left - TIMEOUT_EARLY_MS));
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
