import type { Engine } from '../engine/pipeline.js';
import { urlFilter } from '../scrapers/url-patterns.js';
import { discoverSitemaps, type DiscoveryResult } from './discover-sitemaps.js';
import { inSiteScope } from './site-scope.js';


/**
 * The seeds a site crawl takes from the site's sitemaps: page URLs on the crawl's site that pass
 * its include/exclude patterns, in sitemap order, at most `maxUrls` (the crawl's max_pages: more
 * could never be admitted). Sitemaps on another site are not read. The crawl frontier admits
 * these itself (discovery never writes the frontier); robots.txt still decides, page by page,
 * when they are fetched.
 */
export function sitemapSeeds(
  engine: Engine,
  startUrl: string,
  input: { include: string[]; exclude: string[] },
  opts: { maxUrls: number; deadline?: number; shouldStop?: () => boolean },
): Promise<DiscoveryResult> {
  const allowed = urlFilter(input.include, input.exclude);
  return discoverSitemaps(engine, startUrl, {
    maxUrls: opts.maxUrls,
    deadline: opts.deadline,
    shouldStop: opts.shouldStop,
    acceptSitemap: (u) => inSiteScope(u, startUrl),
    acceptUrl: (u) => inSiteScope(u, startUrl) && allowed(u),
  });
}
