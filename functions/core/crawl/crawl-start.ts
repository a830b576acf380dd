import { AppError } from '../errors.js';
import { siteCrawl, type SiteCrawlInput } from '../scrapers/site-crawl.js';
import { normalizeUrl } from '../scrapers/normalize-url.js';
import type { RunRecord } from '../runs/run-record.js';
import { frontierFor, type SliceRef } from './frontier.js';
import type { Deps } from '../../runtime.js';

/** The frontier of a run's attempt: a retried start (new attempt) crawls afresh in its own partition. */
export const frontierOf = (d: Deps, run: Pick<RunRecord, 'tenant_id' | 'id' | 'attempt'>) => frontierFor(d.table, run);

export const sender = (d: Deps, run: Pick<RunRecord, 'tenant_id' | 'id' | 'attempt'>) => (slice: SliceRef, opts?: { delaySeconds?: number }) =>
  d.queue.send('runs', { kind: 'crawl.slice', tenant_id: run.tenant_id, run_id: run.id, attempt: run.attempt, slice_id: slice.slice_id, urls: slice.urls }, opts);

/**
 * Start a claimed site-crawl run as a distributed crawl: create its frontier with the start URL
 * and queue the first slice. From here on any number of runs workers share the crawl through the
 * queue and the table; the run finishes when its last slice does.
 */
export async function startCrawl(d: Deps, run: RunRecord): Promise<void> {
  const input = siteCrawl.inputSchema.parse(run.input) as SiteCrawlInput;
  const start = normalizeUrl(input.start_url);
  if (!start) throw new AppError(400, 'invalid_request', 'start_url must be an http(s) URL');
  const f = frontierOf(d, run);
  const first = await f.init(start, Math.min(input.max_pages, run.limits.max_pages), d.clock.now());
  // A redelivered start gets the same first slice back and sends it again, in case the first
  // delivery died before sending it (a duplicate message is harmless: its page is done).
  if (first) await sender(d, run)(first);
}

