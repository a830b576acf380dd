import * as z from 'zod';
import { checkTypedFormat, typedItemFields, typedOptionsShape } from '../typed/typed-options.js';
import { engineChoice, httpUrl, sitemapMode, timeoutMs, toInputJsonSchema } from './input-fields.js';
import { patternError, patternsError } from './url-patterns.js';
import type { ScrapeItem, ScraperSpec } from './types.js';
import type { PageResult, ScrapeOptions } from '../engine/types.js';
import { pageFormats, runFormats } from './run-formats.js';
import { checkJsonFormat, jsonItemFields, jsonOptionsSchema } from '../extraction/json-options.js';
import { contentOptionsOf, contentOptionsShape } from '../content/content-options.js';
import { changeOptionsShape, checkChangesFormat, withIgnoredTags } from '../changes/change-options.js';

const pattern = z
  .string()
  .min(1)
  .max(500)
  .superRefine((p, ctx) => {
    const err = patternError(p);
    if (err) ctx.addIssue({ code: 'custom', message: `invalid pattern: ${err}` });
  });

/** Link hops a crawl follows unless told: depth 2 reached 16 pages of a 30-page section. */
export const DEFAULT_MAX_DEPTH = 5;

/**
 * The include a crawl gets when it names none: the start URL's folder (`/site/` and
 * `/site/page` give `/site/**`), so a crawl started inside a section stays in it; none for a
 * start at the root (the whole site, as before).
 */
export function sectionInclude(startUrl: string): string[] {
  let path: string;
  try {
    path = new URL(startUrl).pathname;
  } catch {
    return [];
  }
  const folder = path.slice(0, path.lastIndexOf('/') + 1);
  // Glob metacharacters in a folder name would change its meaning: such a start keeps the whole site.
  return folder.length > 1 && !/[*?[\]{}\\]/.test(folder) ? [`${folder}**`] : [];
}

const inputSchema = z.strictObject({
  start_url: httpUrl.describe('Where the crawl starts (always fetched)'),
  max_pages: z.int().min(1).max(100_000).default(50).describe('Pages to fetch at most (up to 100,000; the crawl is spread over many workers)'),
  max_depth: z.int().min(0).max(20).default(DEFAULT_MAX_DEPTH).describe(`Link hops from the start page (default ${DEFAULT_MAX_DEPTH}: enough to finish a small section; max_pages still bounds the crawl)`),
  include: z
    .array(pattern)
    .max(50)
    .default([])
    .describe('Follow only URLs matching one of these: globs on the path (`/blog/**`) or full URL, or /regex/. Empty: the start URL\'s folder (a crawl started at /docs/ stays under /docs/**); `/**` for the whole site'),
  exclude: z.array(pattern).max(50).default([]).describe('Never follow URLs matching one of these'),
  engine: engineChoice.default('auto'),
  concurrency: z.int().min(1).max(8).default(4).describe('Pages in flight at once per worker (per-host politeness across all workers still applies)'),
  timeout_ms: timeoutMs.optional(),
  sitemap: sitemapMode
    .default('include')
    .describe("Sitemaps: include = seed from robots.txt's Sitemap: lines and /sitemap.xml and follow links too; only = crawl the sitemap's URLs without following links; skip = links only"),
  formats: runFormats.optional(),
  json_options: jsonOptionsSchema.optional().describe('Model extraction (formats includes "json"): JSON Schema of the object to extract from each page, and an optional prompt'),
  ...contentOptionsShape,
  ...changeOptionsShape,
  ...typedOptionsShape,
}).superRefine((input, ctx) => {
  checkChangesFormat(input, ctx);
  checkTypedFormat(input, ctx);
  const err = patternsError([...input.include, ...input.exclude]);
  if (err) ctx.addIssue({ code: 'custom', path: ['include'], message: err });
  checkJsonFormat(input, ctx);
}).transform((input) => (input.include.length ? input : { ...input, include: sectionInclude(input.start_url) }));

/** The item a crawled page becomes. */
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
    ...typedItemFields(page),
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
  ...(input.typed_options ? { typed: input.typed_options } : {}),
  ...withIgnoredTags(contentOptionsOf(input), input.change_options),
});

/**
 * `site-crawl`: from `start_url`, same-site links only, de-duplicated on the normalised URL,
 * bounded by `max_pages` and `max_depth`, filtered by include/exclude patterns. A page that does
 * not pass the include/exclude filter is not fetched, so its links are not followed either.
 * Robots-disallowed pages are skipped (the engine counts them); a failing page other than the
 * start page is recorded as failed. It runs only as a distributed crawl (functions/core/crawl:
 * a durable frontier in the table, slices of pages on the runs queue), so this is its spec: what
 * it is and what input it takes.
 */
export const siteCrawl: ScraperSpec<SiteCrawlInput> = {
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
};
