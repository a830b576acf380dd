import * as z from 'zod';
import { httpUrl, sitemapMode, toInputJsonSchema } from './input-fields.js';
import type { ScraperSpec } from './types.js';

// What the API needs of site-map (validation, listing), apart from the code that runs it.

/** Most URLs one site map returns. */
export const SITE_MAP_MAX_LIMIT = 100_000;

/** The input's fields (the MCP tool `map_site` takes the same). */
export const siteMapInputShape = {
  url: httpUrl.describe('The site to map (its origin\'s robots.txt and /sitemap.xml are read; this page\'s links are listed too)'),
  search: z.string().trim().min(1).max(500).optional().describe('Order the URLs by relevance to these words (URL path and title words)'),
  include_subdomains: z.boolean().default(false).describe('Also list URLs (and read sitemaps) on subdomains of the site'),
  sitemap: sitemapMode
    .default('include')
    .describe('include = sitemaps and the page\'s links; only = sitemaps only; skip = the page\'s links only'),
  limit: z.int().min(1).max(SITE_MAP_MAX_LIMIT).default(5000).describe('URLs to return at most (up to 100,000)'),
};

const inputSchema = z.strictObject(siteMapInputShape);

/** Input of {@link siteMapSpec} (site-map). */
export type SiteMapInput = z.infer<typeof inputSchema>;

/** `site-map`: a site's URLs from its sitemaps and the start page's links, without fetching them. */
export const siteMapSpec: ScraperSpec<SiteMapInput> = {
  scraper_id: 'site-map',
  name: 'Site map',
  description:
    "Lists a site's URLs fast, without fetching each page: from its sitemaps (robots.txt Sitemap: lines, /sitemap.xml, sitemap indexes, gzip and text sitemaps) and the start page's links, normalised and de-duplicated, ordered by relevance to an optional search. One item per URL with its title and lastmod when known.",
  engine: 'http',
  builtin: true,
  inputSchema,
  get input_schema() {
    return toInputJsonSchema(inputSchema);
  },
};
