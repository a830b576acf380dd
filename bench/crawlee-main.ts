/**
 * Crawlee's CheerioCrawler in a process of its own, as the crawl bench's baseline:
 * `tsx bench/crawlee-main.ts <baseUrl> <pages> <concurrency>` crawls `<baseUrl>/graph/0` with
 * in-memory storage and prints one JSON line `{pages, secs}`. Its own process, like the service's,
 * so neither leaves work (timers, garbage) behind in the bench's process for the arms after it.
 */
const [baseUrl, pagesArg, concArg] = process.argv.slice(2);
const PAGES = Number(pagesArg);
const CONCURRENCY = Number(concArg);
const { CheerioCrawler, Configuration } = await import('@crawlee/cheerio');
const { MemoryStorage } = await import('@crawlee/memory-storage');
const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false, writeMetadata: false }), purgeOnStart: true });
let pages = 0;
const crawler = new CheerioCrawler(
  {
    maxConcurrency: CONCURRENCY,
    minConcurrency: CONCURRENCY,
    maxRequestsPerCrawl: PAGES,
    maxRequestRetries: 0,
    async requestHandler({ $, request, enqueueLinks }) {
      // The same work per page as the crawl's item: title, text and links.
      void { url: request.loadedUrl, title: $('title').text(), text: $('body').text(), links: $('a[href]').map((_, a) => $(a).attr('href')).get() };
      pages++;
      await enqueueLinks({ strategy: 'same-hostname' });
    },
  },
  config,
);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
await crawler.run([`${baseUrl}/graph/0`]);
const cpu = process.cpuUsage(cpu0);
// CPU (user + system) of this process over the crawl, for the bench's CPU per page beside the rate.
process.stdout.write(`${JSON.stringify({ pages, secs: (performance.now() - t0) / 1000, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
process.exit(0);
