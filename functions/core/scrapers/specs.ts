import { cssExtractSpec } from './css-extract-spec.js';
import { pageContent } from './page-content.js';
import { siteCrawl } from './site-crawl.js';
import { siteMapSpec } from './site-map-spec.js';
import { webSearchSpec } from './web-search-spec.js';
import type { ScraperSpec } from './types.js';

// The built-in scrapers as the API sees them (listing, input validation). registry.ts pairs
// them with the code that runs them, which only workers load.

/** The built-in scrapers, in listing order (`GET /v1/scrapers`; published runbooks follow). */
export const BUILTIN_SCRAPER_SPECS: readonly ScraperSpec<any>[] = [pageContent, cssExtractSpec, siteCrawl, siteMapSpec, webSearchSpec];

/** A built-in scraper's spec by id, or undefined (runbook ids `rbk_…` are looked up in the table). */
export function builtinScraperSpec(id: string): ScraperSpec<any> | undefined {
  return BUILTIN_SCRAPER_SPECS.find((s) => s.scraper_id === id);
}

/** The listing shape of a scraper (API.md): no functions, no zod. */
export function describeScraper(s: ScraperSpec<any>): {
  scraper_id: string;
  name: string;
  description: string;
  engine: ScraperSpec['engine'];
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
