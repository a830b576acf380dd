import { AppError } from '../errors.js';
import { siteCrawl, type SiteCrawlInput } from '../scrapers/site-crawl.js';
import { normalizeUrl } from '../scrapers/normalize-url.js';
import type { RunRecord } from '../runs/run-record.js';
import { frontierFor, type SliceRef } from './frontier.js';
import type { Deps } from '../../runtime.js';

/** The frontier of a run's attempt: a retried start (new attempt) crawls afresh in its own partition. */
export const frontierOf = (d: Deps, run: Pick<RunRecord, 'tenant_id' | 'id' | 'attempt'>) => frontierFor(d.table, run);

/** Sends a crawl's slices; `inFlight`: the crawl's concurrency (the slice's weight in its tenant's share). */
export const sender = (d: Deps, run: Pick<RunRecord, 'tenant_id' | 'id' | 'attempt'>, inFlight?: number) => (slice: SliceRef, opts?: { delaySeconds?: number }) =>
  d.queue.send('runs', { kind: 'crawl.slice', tenant_id: run.tenant_id, run_id: run.id, attempt: run.attempt, slice_id: slice.slice_id, urls: slice.urls, ...(inFlight ? { in_flight: inFlight } : {}) }, opts);

/** A URL the crawl starts from, with its depth (the start URL is depth 0). */
export interface Seed {
  url: string;
  depth: number;
}

/**
 * Start a claimed site-crawl run as a distributed crawl: create its frontier with its seeds and
 * queue the first slices. From here on any number of runs workers share the crawl through the
 * queue and the table; the run finishes when its last slice does.
 */
export async function startCrawl(d: Deps, run: RunRecord): Promise<void> {
  const input = siteCrawl.inputSchema.parse(run.input) as SiteCrawlInput;
  const start = normalizeUrl(input.start_url);
  if (!start) throw new AppError(400, 'invalid_request', 'start_url must be an http(s) URL');
  await seedCrawl(d, run, [{ url: start, depth: 0 }], Math.min(input.max_pages, run.limits.max_pages), input.concurrency);
}

/**
 * Create the run's frontier with `seeds` (normalised, same-site and filtered by the caller; the
 * start URL first, at depth 0) admitted in the order given, within `maxPages`, and queue them as
 * slices. Idempotent: a redelivered start admits nothing new, gets the same first slices back and
 * sends them again, in case the first delivery died before sending them (a duplicate message is
 * harmless: its slice is leased or finished).
 */
export async function seedCrawl(d: Deps, run: Pick<RunRecord, 'tenant_id' | 'id' | 'attempt'>, seeds: Seed[], maxPages: number, inFlight?: number): Promise<void> {
  const send = sender(d, run, inFlight);
  for (const slice of await frontierOf(d, run).init(seeds, maxPages, d.clock.now())) await send(slice);
}
