import { cssExtract } from './css-extract.js';
import { pageContent } from './page-content.js';
import { siteCrawl } from './site-crawl.js';
import { siteMap } from './site-map.js';
import { webSearch } from './web-search.js';
import type { Scraper, ScraperSpec } from './types.js';

/** The built-in scrapers, in listing order (specs.ts lists them for the API). */
export const BUILTIN_SCRAPERS: readonly ScraperSpec<any>[] = [pageContent, cssExtract, siteCrawl, siteMap, webSearch];

/** A built-in scraper by id, or undefined (runbook ids `rbk_…` are looked up in the table). */
export function builtinScraper(id: string): ScraperSpec<any> | undefined {
  return BUILTIN_SCRAPERS.find((s) => s.scraper_id === id);
}

/**
 * The built-ins a run worker runs within one invocation, with their running code. `site-crawl`
 * is not one: it runs only as a distributed crawl (functions/core/crawl).
 */
const RUNNABLE: readonly Scraper<any>[] = [pageContent, cssExtract, siteMap, webSearch];

/** A built-in scraper's running code by id, or undefined. */
export function runnableBuiltin(id: string): Scraper<any> | undefined {
  return RUNNABLE.find((s) => s.scraper_id === id);
}

export { describeScraper } from './specs.js';
export { cssExtract, pageContent, siteCrawl, siteMap, webSearch };
export type { Scraper, ScraperContext, ScraperSpec, ScrapeItem, ScraperOutcome, ScraperProgress } from './types.js';
