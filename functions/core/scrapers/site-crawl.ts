import * as z from 'zod';
import { AppError } from '../errors.js';
import { engineChoice, httpUrl, timeoutMs, toInputJsonSchema } from './input-fields.js';
import { normalizeUrl, sameSite } from './normalize-url.js';
import { patternError, patternsError, urlFilter } from './url-patterns.js';
import { halted, type ScrapeItem, type Scraper, type ScraperOutcome, type ScraperStop } from './types.js';
import type { PageResult, ScrapeOptions } from '../engine/types.js';
import { pageFormats, runFormats } from './run-formats.js';
import { checkJsonFormat, jsonItemFields, jsonOptionsSchema } from '../extraction/json-options.js';
import { contentOptionsOf, contentOptionsShape } from '../content/content-options.js';

const pattern = z
  .string()
  .min(1)
  .max(500)
  .superRefine((p, ctx) => {
    const err = patternError(p);
    if (err) ctx.addIssue({ code: 'custom', message: `invalid pattern: ${err}` });
  });

const inputSchema = z.strictObject({
  start_url: httpUrl.describe('Where the crawl starts (always fetched)'),
  max_pages: z.int().min(1).max(100_000).default(50).describe('Pages to fetch at most (up to 100,000; the crawl is spread over many workers)'),
  max_depth: z.int().min(0).max(20).default(2).describe('Link hops from the start page'),
  include: z
    .array(pattern)
    .max(50)
    .default([])
    .describe('Follow only URLs matching one of these: globs on the path (`/blog/**`) or full URL, or /regex/'),
  exclude: z.array(pattern).max(50).default([]).describe('Never follow URLs matching one of these'),
  engine: engineChoice.default('auto'),
  concurrency: z.int().min(1).max(8).default(4).describe('Pages in flight at once per worker (per-host politeness across all workers still applies)'),
  timeout_ms: timeoutMs.optional(),
  sitemap: z
    .enum(['include', 'skip', 'only'])
    .default('include')
    .describe("Sitemaps: include = seed from robots.txt's Sitemap: lines and /sitemap.xml and follow links too; only = crawl the sitemap's URLs without following links; skip = links only"),
  formats: runFormats.optional(),
  json_options: jsonOptionsSchema.optional().describe('Model extraction (formats includes "json"): JSON Schema of the object to extract from each page, and an optional prompt'),
  ...contentOptionsShape,
}).superRefine((input, ctx) => {
  const err = patternsError([...input.include, ...input.exclude]);
  if (err) ctx.addIssue({ code: 'custom', path: ['include'], message: err });
  checkJsonFormat(input, ctx);
});

/** The item a crawled page becomes (in-process and distributed crawls alike). */
export const crawlItem = (page: PageResult, depth: number): ScrapeItem => ({
  url: page.final_url,
  fetched_at: page.fetched_at,
  status_code: page.status_code,
  data: {
    title: page.title ?? '',
    depth,
    markdown: page.markdown ?? '',
    text: page.text ?? '',
    links: page.links ?? [],
    metadata: page.metadata ?? null,
    content_type: page.content_type ?? null,
    engine_used: page.engine_used,
    ...jsonItemFields(page),
  },
});

/**
 * Input of {@link siteCrawl}. `sitemap` is always set on an input the schema parsed (default
 * `include`); an input built by hand without it (engine tests) crawls by links only.
 */
export type SiteCrawlInput = Omit<z.infer<typeof inputSchema>, 'sitemap'> & { sitemap?: z.infer<typeof inputSchema>['sitemap'] };

/** How a crawl scrapes each page (in-process and distributed crawls alike). */
export const crawlPageOptions = (input: SiteCrawlInput): ScrapeOptions => ({
  engine: input.engine,
  formats: pageFormats(input),
  timeout_ms: input.timeout_ms,
  json: input.json_options,
  ...contentOptionsOf(input),
});

interface QueueEntry {
  url: string;
  depth: number;
}

/**
 * `site-crawl`: breadth-first from `start_url`, same-site links only, de-duplicated on the
 * normalised URL, bounded by `max_pages` and `max_depth`, filtered by include/exclude patterns.
 * A page that does not pass the include/exclude filter is not fetched, so its links are not
 * followed either. Robots-disallowed pages are skipped (the engine counts them); a failing page other than the
 * start page is logged by the engine and skipped.
 */
export const siteCrawl: Scraper<SiteCrawlInput> = {
  scraper_id: 'site-crawl',
  name: 'Site crawl',
  description:
    'Crawls a site breadth-first from a start URL and its sitemaps (robots.txt Sitemap: lines, /sitemap.xml), following same-site links up to max_depth and max_pages with include/exclude patterns, and returns each page\'s title, markdown, text, links and metadata.',
  engine: 'auto',
  builtin: true,
  inputSchema,
  get input_schema() {
    return toInputJsonSchema(inputSchema);
  },
  async run(input, ctx): Promise<ScraperOutcome> {
    const start = normalizeUrl(input.start_url);
    if (!start) throw new AppError(400, 'invalid_request', 'start_url must be an http(s) URL');
    const allowed = urlFilter(input.include, input.exclude);
    const seen = new Set<string>([start]);
    const queue: QueueEntry[] = [{ url: start, depth: 0 }];
    let claimed = 0; // pages taken from the queue that count against max_pages
    let done = 0;
    let items = 0;
    let stopped: ScraperStop = 'done';
    let fatal: unknown;

    // Matching is linear (RE2) and capped per link, but a page may hold thousands of links: give
    // the event loop back every few milliseconds so other requests in this process keep answering.
    const enqueue = async (links: string[], depth: number) => {
      if (depth > input.max_depth) return;
      let slice = performance.now();
      for (const link of links) {
        if (performance.now() - slice > 10) {
          await new Promise((r) => setImmediate(r));
          slice = performance.now();
        }
        const n = normalizeUrl(link);
        if (!n || seen.has(n) || !sameSite(n, start) || !allowed(n)) continue;
        seen.add(n);
        queue.push({ url: n, depth });
      }
    };

    const crawlOne = async (entry: QueueEntry) => {
      try {
        const page = await ctx.engine.scrapePage(entry.url, crawlPageOptions(input));
        if (page.skipped) {
          claimed--; // robots skips do not use the page budget
          return;
        }
        done++;
        ctx.progress({ pages_done: done, pages_total: null });
        if (page.blocked) return;
        await ctx.emit(crawlItem(page, entry.depth));
        items++;
        // Links are resolved against the final URL; a redirect off-site yields off-site links, filtered here.
        await enqueue(page.links ?? [], entry.depth + 1);
      } catch (err) {
        if (entry.depth === 0) fatal ??= err;
        done++;
      }
    };

    // Level-synchronous BFS: a depth level is finished before the next one starts, so max_pages
    // always takes the shallowest pages and items come out in depth order. Within a level, at most
    // `concurrency` pages are in flight.
    let level = queue.splice(0);
    while (level.length > 0 && !fatal) {
      const active = new Set<Promise<void>>();
      for (;;) {
        // Ask before every page (not once per batch): the run's limits count pages as they start.
        while (!fatal && stopped === 'done' && active.size < input.concurrency && level.length > 0 && claimed < input.max_pages) {
          const stop = halted(ctx);
          if (stop) {
            stopped = stop;
            break;
          }
          const entry = level.shift()!;
          claimed++;
          const task: Promise<void> = crawlOne(entry).finally(() => active.delete(task));
          active.add(task);
        }
        if (active.size === 0) break;
        await Promise.race(active);
      }
      if (stopped !== 'done' || claimed >= input.max_pages) break;
      level = queue.splice(0);
    }
    if (fatal) throw fatal;
    ctx.progress({ pages_done: done, pages_total: done });
    return { pages_done: done, items, stopped: ctx.engine.stopReason() ? 'challenge' : stopped };
  },
};
