/**
 * The local service's V8 heap bound, in MB: `npm start` (package.json), the kill test's service
 * (test/e2e/crawl/local-process.ts) and the crawl bench run with `--max-old-space-size` set to it.
 *
 * On AWS each function's heap is bounded by its memory size (512 MB API functions, 1-2 GB
 * workers); locally one process stands in for all of them plus the embedded dynalite and s3rver,
 * so 1 GB. Without a bound V8 sizes the heap for this machine's memory and lets it grow to three
 * times what is live before collecting (a 10,000-page crawl: about 60 MB live, +200 MB RSS); at
 * 1 GB or less it collects sooner (the same crawl: +56 MB, as fast). A leak now ends in an
 * out-of-memory crash locally, as it would on Lambda, instead of a slowly growing process.
 */
export const LOCAL_HEAP_MB = 1024;

export const HEAP_FLAG = `--max-old-space-size=${LOCAL_HEAP_MB}`;
