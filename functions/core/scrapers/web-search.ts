import { AppError } from '../errors.js';
import { webSearchSpec } from './web-search-spec.js';
import type { WebSearchInput } from '../search/search-request.js';
import type { Scraper } from './types.js';

/**
 * `web-search`: one governed search (core/search, with the run's engine for the scrapes), one
 * item per result in rank order: `{ url, fetched_at, status_code, data: { rank, url, title,
 * snippet, published_at, policy, scrape?, change? } }`. `status_code` is the scraped page's, or 0
 * when the result was not fetched. With `changes`, each result is compared by URL only: a URL
 * the tag has not seen is `new`, one it has is `same`.
 */
export const webSearch: Scraper<WebSearchInput> = {
  ...webSearchSpec,
  async run(input, ctx) {
    if (!ctx.search) throw new AppError(500, 'internal_error', 'web-search needs the search service');
    const { formats: _f, change_options: _c, ...request } = input;
    const answer = await ctx.search(request);
    const fetchedAt = new Date().toISOString();
    let items = 0;
    for (const r of answer.data) {
      const page = r.scrape && !('error' in r.scrape) ? (r.scrape as { status_code?: number; fetched_at?: string }) : undefined;
      const change = ctx.changes ? await ctx.changes.track({ url: r.url, fetched_at: fetchedAt, status_code: 200, markdown: '', structured: null }) : undefined;
      await ctx.emit({ url: r.url, fetched_at: page?.fetched_at ?? fetchedAt, status_code: page?.status_code ?? 0, data: { ...r, provider: answer.provider, ...(change ? { change } : {}) } });
      items++;
    }
    // Pages fetched: the billed ones plus challenge walls (the run bills pages_done less its challenges).
    const walls = answer.data.filter((r) => r.scrape && 'error' in r.scrape && (r.scrape.error as { code?: string }).code === 'challenge_detected').length;
    const fetched = answer.usage.pages + walls;
    ctx.progress({ pages_done: fetched, pages_total: fetched });
    return { pages_done: fetched, items, stopped: 'done' };
  },
};
