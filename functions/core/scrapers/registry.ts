import { cssExtract } from './css-extract.js';
import { pageContent } from './page-content.js';
import { siteCrawl } from './site-crawl.js';
import type { Scraper } from './types.js';

/** The built-in scrapers, in listing order (`GET /v1/scrapers`; published runbooks follow). */
export const BUILTIN_SCRAPERS: readonly Scraper<any>[] = [pageContent, cssExtract, siteCrawl];

/** A built-in scraper by id, or undefined (runbook ids `rbk_…` are looked up in the table). */
export function builtinScraper(id: string): Scraper<any> | undefined {
  return BUILTIN_SCRAPERS.find((s) => s.scraper_id === id);
}

/** The listing shape of a scraper (API.md): no functions, no zod. */
export function describeScraper(s: Scraper<any>): {
  scraper_id: string;
  name: string;
  description: string;
  engine: Scraper['engine'];
  input_schema: Record<string, unknown>;
  builtin: boolean;
} {
  return {
    scraper_id: s.scraper_id,
    name: s.name,
    description: s.description,
    engine: s.engine,
    input_schema: s.input_schema,
    builtin: s.builtin,
  };
}

export { cssExtract, pageContent, siteCrawl };
export type { Scraper, ScraperContext, ScrapeItem, ScraperOutcome, ScraperProgress } from './types.js';
