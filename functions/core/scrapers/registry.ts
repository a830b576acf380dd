import { cssExtract } from './css-extract.js';
import { pageContent } from './page-content.js';
import { siteCrawl } from './site-crawl.js';
import { siteMap } from './site-map.js';
import type { Scraper } from './types.js';

/** The built-in scrapers with their running code, in listing order (specs.ts lists them for the API). */
export const BUILTIN_SCRAPERS: readonly Scraper<any>[] = [pageContent, cssExtract, siteCrawl, siteMap];

/** A built-in scraper by id, or undefined (runbook ids `rbk_…` are looked up in the table). */
export function builtinScraper(id: string): Scraper<any> | undefined {
  return BUILTIN_SCRAPERS.find((s) => s.scraper_id === id);
}

export { describeScraper } from './specs.js';
export { cssExtract, pageContent, siteCrawl, siteMap };
export type { Scraper, ScraperContext, ScraperSpec, ScrapeItem, ScraperOutcome, ScraperProgress } from './types.js';
