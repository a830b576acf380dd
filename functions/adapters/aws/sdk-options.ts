/**
 * Options every AWS SDK client of ours is created with, S3 clients excepted (see
 * {@link S3_CLIENT_OPTIONS}). `cacheMiddleware`: the middleware stack is
 * resolved once per command class instead of on every `send`. Resolving it per call allocated about
 * a third of what a crawl's pages promoted to the old generation (bench/crawl.bench.ts with
 * GLEANER_BENCH_CRAWL_HEAPPROF=1), since each call's chain lives while its request is in flight.
 * Nothing of ours changes a client's middleware after its first request (the tests' recorder adds
 * its one before the first).
 */
export const SDK_CLIENT_OPTIONS = { cacheMiddleware: true } as const;

/**
 * Options of every S3 client of ours: the middleware stack is resolved per call. An S3 request's
 * endpoint depends on the command's `Bucket`, and with the stack cached, concurrent puts to two
 * buckets landed in one of them (a crawl's result batch in the raw-log bucket: results lost).
 * test/integration/foundation/s3-buckets.test.ts holds every S3 client we build to that.
 */
export const S3_CLIENT_OPTIONS = { cacheMiddleware: false } as const;

/**
 * Take the SDK's logger middleware off a client. Our clients log nothing through the SDK (its
 * default logger is a no-op), yet the middleware still builds a redacted copy of every command's
 * input and output for that no-op logger (`schemaLogFilter`): about a tenth of the SDK's CPU per
 * DynamoDB call in a crawl (bench/crawl.bench.ts profile). Errors still reach the caller as thrown.
 */
export function withoutSdkLogging<T extends { middlewareStack: { remove(name: string): boolean } }>(client: T): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
