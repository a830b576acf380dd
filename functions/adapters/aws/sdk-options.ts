/**
 * Options every AWS SDK client of ours is created with. `cacheMiddleware`: the middleware stack is
 * resolved once per command class instead of on every `send`. Resolving it per call allocated about
 * a third of what a crawl's pages promoted to the old generation (bench/crawl.bench.ts with
 * GLEANER_BENCH_CRAWL_HEAPPROF=1), since each call's chain lives while its request is in flight.
 * Nothing of ours changes a client's middleware after its first request (the tests' recorder adds
 * its one before the first).
 */
export const SDK_CLIENT_OPTIONS = { cacheMiddleware: true } as const;
