import { loadHtml } from '../content/load-html.js';
import { AppError } from '../errors.js';
import { absoluteHttpUrl } from '../engine/parse.js';
import { discoverSitemaps } from '../discovery/discover-sitemaps.js';
import { rankByRelevance } from '../discovery/rank-urls.js';
import { inSiteScope } from '../discovery/site-scope.js';
import { normalizeUrl } from './normalize-url.js';
import { SITE_MAP_MAX_LIMIT, siteMapSpec, type SiteMapInput } from './site-map-spec.js';
import { halted, type Scraper, type ScraperOutcome, type ScraperStop } from './types.js';

export type { SiteMapInput } from './site-map-spec.js';

/** One URL of a site map (an item's `data`). */
export interface SiteMapEntry {
  url: string;
  title: string | null;
  lastmod: string | null;
  source: 'sitemap' | 'page';
}

/** Time the sitemaps of one site map may take to read at most. */
const SITEMAP_BUDGET_MS = 120_000;

/** A page's links with their anchor text, in document order (`<base href>` honoured). */
function linksWithText(html: string, pageUrl: string): { url: string; text: string }[] {
  const $ = loadHtml(html);
  const baseHref = $('base[href]').first().attr('href');
  let base = pageUrl;
  if (baseHref) {
    try {
      base = new URL(baseHref, pageUrl).href;
    } catch {
      // keep the page URL
    }
  }
  const out: { url: string; text: string }[] = [];
  $('a[href]').each((_, a) => {
    const abs = absoluteHttpUrl($(a).attr('href'), base);
    if (!abs) return;
    const text = ($(a).text() || $(a).attr('title') || $(a).attr('aria-label') || '').replace(/\s+/g, ' ').trim();
    out.push({ url: abs, text: text.slice(0, 300) });
  });
  return out;
}

/**
 * `site-map`: a site's URLs without fetching each page. Sitemaps first (robots.txt's `Sitemap:`
 * lines, `/sitemap.xml`, indexes followed; see discovery/discover-sitemaps.ts for the bounds),
 * then the start page's links; every URL normalised, de-duplicated and kept to the site (and its
 * subdomains when asked). With `search`, up to 100,000 URLs are gathered and the most relevant
 * `limit` returned best first; without it, the first `limit` in sitemap order then page order.
 * Items carry `status_code` 0: the listed URL itself was not fetched.
 */
export const siteMap: Scraper<SiteMapInput> = {
  scraper_id: siteMapSpec.scraper_id,
  name: siteMapSpec.name,
  description: siteMapSpec.description,
  engine: siteMapSpec.engine,
  builtin: siteMapSpec.builtin,
  inputSchema: siteMapSpec.inputSchema,
  get input_schema() {
    return siteMapSpec.input_schema;
  },
  async run(input, ctx): Promise<ScraperOutcome> {
    const start = normalizeUrl(input.url);
    if (!start) throw new AppError(400, 'invalid_request', 'url must be an http(s) URL');
    const first = halted(ctx);
    if (first) return { pages_done: 0, items: 0, stopped: first };
    const inScope = (u: string) => inSiteScope(u, start, input.include_subdomains);
    // With a search, gather more than the limit so the best matches are not cut off by order.
    const gather = input.search ? SITE_MAP_MAX_LIMIT : input.limit;
    const entries: SiteMapEntry[] = [];
    const seen = new Set<string>();
    let requests = 0;

    if (input.sitemap !== 'skip') {
      const found = await discoverSitemaps(ctx.engine, start, {
        maxUrls: gather,
        acceptUrl: inScope,
        acceptSitemap: inScope,
        shouldStop: ctx.shouldStop,
        deadline: Date.now() + SITEMAP_BUDGET_MS,
      });
      requests += found.fetched;
      for (const d of found.urls) {
        seen.add(d.url);
        entries.push({ url: d.url, title: d.title, lastmod: d.lastmod, source: 'sitemap' });
      }
      ctx.progress({ pages_done: requests, pages_total: null });
    }

    if (input.sitemap !== 'only' && entries.length < gather && !halted(ctx)) {
      requests++;
      let page;
      try {
        page = await ctx.engine.scrapePage(start, { engine: 'http', formats: ['html'] });
      } catch (err) {
        // The start page is only one source: with sitemap URLs in hand the map still stands.
        if (!entries.length) throw err;
      }
      if (page && !page.skipped && !page.blocked && page.html) {
        const add = (url: string, title: string | null) => {
          const n = normalizeUrl(url);
          if (!n || seen.has(n) || !inScope(n) || entries.length >= gather) return;
          seen.add(n);
          entries.push({ url: n, title, lastmod: null, source: 'page' });
        };
        if (page.status_code >= 200 && page.status_code < 300) add(page.final_url, page.title || null);
        for (const l of linksWithText(page.html, page.final_url)) add(l.url, l.text || null);
      }
      ctx.progress({ pages_done: requests, pages_total: null });
    }

    const ranked = rankByRelevance(entries, input.search).slice(0, input.limit);
    const fetchedAt = new Date().toISOString();
    let items = 0;
    let stopped: ScraperStop = 'done';
    for (const e of ranked) {
      // Ask now and then, not per item: emitting 100,000 items is a few seconds of writes.
      if (items % 1000 === 0) {
        const stop = halted(ctx);
        if (stop) {
          stopped = stop;
          break;
        }
      }
      await ctx.emit({ url: e.url, fetched_at: fetchedAt, status_code: 0, data: { ...e } });
      items++;
    }
    ctx.progress({ pages_done: requests, pages_total: requests });
    return { pages_done: requests, items, stopped: ctx.engine.stopReason() ? 'challenge' : stopped };
  },
};
