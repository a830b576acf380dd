import type { PageResult } from '../../../functions/core/engine/types.js';
import type { SiteCrawlInput } from '../../../functions/core/scrapers/site-crawl.js';

/**
 * The 40-page site the crawl's fault tests walk (kill-steps, stalled-worker): page i links to
 * three others and itself, deterministically, so every run admits the same pages in the same order.
 */
export const N = 40;
export const url = (i: number) => `https://site.test/p/${i}`;
export const page = (u: string): PageResult => {
  const i = Number(u.split('/').pop());
  const links = [(i * 7 + 1) % N, (i * 13 + 5) % N, (i + 1) % N, i].map(url);
  return { url: u, final_url: u, status_code: 200, engine_used: 'http', fetched_at: '2026-11-23T10:00:00.000Z', title: `Page ${i}`, markdown: `# ${i}`, text: `${i}`, links, metadata: { title: null, description: null, canonical: null, lang: null, og: {}, author: null, published_at: null, modified_at: null, site_name: null, language: null, image: null, type: null } };
};
export const input: SiteCrawlInput = { start_url: url(0), max_pages: N, max_depth: 20, include: [], exclude: [], engine: 'http', concurrency: 2 };
/** A lease longer than any test: a slice is retaken only when a test says so. */
export const LEASE_MS = 90_000;
