import { createHash } from 'node:crypto';
import { zeroCounts, type ChangeCounts } from './change-tracker.js';
import { CHANGE_STATUSES } from './snapshot-store.js';

/**
 * A crawl's scope for removed-page detection: its start URL and what decides which pages it may
 * reach (include/exclude, depth, sitemap mode). Two crawls of one scope are comparable; a page
 * only a differently scoped crawl reached is never reported removed by this one.
 */
export function crawlScope(start: string, input: { include?: string[]; exclude?: string[]; max_depth?: number; sitemap?: string }): string {
  const key = JSON.stringify([start, input.include ?? [], input.exclude ?? [], input.max_depth ?? null, input.sitemap ?? 'skip']);
  return createHash('sha256').update(key).digest('base64url').slice(0, 24);
}

/** A tracker's counts as crawl counters (`changes_<status>`), added to the crawl's state per slice like its other counters. */
export function countersOf(c: ChangeCounts): Record<string, number> {
  return Object.fromEntries(CHANGE_STATUSES.map((s) => [`changes_${s}`, c[s]]));
}

/** Run `stats.changes` from the crawl's counters. */
export function changeStats(counters: object): ChangeCounts {
  const c = counters as Record<string, unknown>;
  const out = zeroCounts();
  for (const s of CHANGE_STATUSES) out[s] = Number(c[`changes_${s}`] ?? 0);
  return out;
}
