import { cacheable, cacheKeyOf, readCachedAnswer, storeCachedAnswer, type CacheContext } from './page-cache.js';
import type { Table } from '../../ports/table.js';
import type { Blobs } from '../../ports/blobs.js';

type Stores = { table: Table; blobs: Blobs };
type Request = Record<string, unknown> & { url: string; max_age?: number };

/**
 * POST /v1/scrape with `max_age`: this tenant's earlier answer for the same page, options and
 * profile settings, no older than max_age, as `{ ...answer, cached: true, fetched_at }` (its
 * `url` is the one asked for now); null when there is none, when the request may not be served
 * from the cache, or when `ctx.admit` (target policy and robots.txt as they are now) refuses it.
 */
export async function answerFromCache(d: Stores, tenantId: string, request: Request, now: Date, ctx: CacheContext): Promise<Record<string, unknown> | null> {
  if (!request.max_age || !cacheable(request)) return null;
  const hit = await readCachedAnswer<Record<string, unknown>>(d, tenantId, cacheKeyOf('scrape', request, ctx.profile), request.max_age, now);
  if (!hit || !(await ctx.admit(request.url))) return null;
  return { ...hit.value, url: request.url, cached: true, fetched_at: hit.fetched_at };
}

/** Worker side: keep a successful (2xx) scrape answer for later max_age requests (keyed with its profile's settings). */
export async function keepScrapeAnswer(d: Stores, tenantId: string, request: Request, answer: { status_code?: unknown }, fetchedAt: string, profile?: Record<string, unknown>): Promise<void> {
  const status = Number(answer.status_code);
  if (!(status >= 200 && status < 300) || !cacheable(request)) return;
  await storeCachedAnswer(d, tenantId, cacheKeyOf('scrape', request, profile), fetchedAt, answer);
}
