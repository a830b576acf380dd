import { keys } from '../table-keys.js';
import type { Table } from '../../ports/table.js';

/**
 * Per-tenant budgets of quota-metered platforms, kept in the table so every worker, query and job
 * of a tenant shares them:
 *
 * - Instagram: at most 30 unique hashtags per Instagram account in any rolling 7 days. A hashtag
 *   counts from its first query for 7 days; querying it again in that time is free and does not
 *   restart its timer (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-hashtag-search,
 *   "Limitations"; https://developers.facebook.com/docs/instagram-api/guides/hashtag-search).
 * - YouTube Data API: units per day (search.list = 100, videos.list = 1 per call), default 10,000
 *   per project, reset at midnight Pacific Time (https://developers.google.com/youtube/v3/getting-started#quota,
 *   https://developers.google.com/youtube/v3/determine_quota_cost).
 *
 * Writes are single-item: conditional puts with a version (hashtags) and atomic ADDs (units).
 */

export const IG_HASHTAG_LIMIT = 30;
export const IG_HASHTAG_WINDOW_MS = 7 * 86_400_000;
export const YOUTUBE_DEFAULT_DAILY_UNITS = 10_000;
/** Documented costs (https://developers.google.com/youtube/v3/determine_quota_cost). */
export const YOUTUBE_UNIT_COST = { search: 100, videos: 1 } as const;

export interface HashtagReservation {
  /** Tags the account may query now (already counted in the window, or newly counted). */
  allowed: string[];
  /** Tags refused: the account's 30 unique hashtags of the last 7 days are spent. */
  refused: string[];
  /** When the oldest counted hashtag leaves the window (the next free slot), if any was refused. */
  nextFreeAt?: Date;
  /** Unique hashtags counted in the window after this reservation. */
  used: number;
}

export interface UnitsStatus {
  /** Pacific calendar day the units belong to (YYYY-MM-DD). */
  day: string;
  used: number;
  limit: number;
  remaining: number;
  /** Next midnight Pacific Time. */
  resetsAt: Date;
}

/** The budgets a connector may consult; one instance per tenant. */
export interface SourceLedger {
  /** Counts `tags` against the account's rolling 7-day hashtag budget; tags already counted are free. */
  reserveHashtags(account: string, tags: string[], now: Date): Promise<HashtagReservation>;
  /** Hashtags counted for the account in the window, with when each was first queried. */
  hashtagsInWindow(account: string, now: Date): Promise<{ tag: string; first_used_at: string }[]>;
  /** YouTube units used today (Pacific day), against `limit`. */
  units(source: 'youtube', limit: number, now: Date): Promise<UnitsStatus>;
  /** Adds units spent (atomic). */
  addUnits(source: 'youtube', units: number, now: Date): Promise<void>;
  /** The platform said the quota is spent: record today's use as at least `limit`. */
  markExhausted(source: 'youtube', limit: number, now: Date): Promise<void>;
}

const PACIFIC = 'America/Los_Angeles';

/** The Pacific calendar day of `now`, YYYY-MM-DD. */
export function pacificDay(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: PACIFIC, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The next midnight in America/Los_Angeles after `now` (handles PST/PDT). */
export function nextPacificMidnight(now: Date): Date {
  const [y, m, d] = pacificDay(now).split('-').map(Number);
  // Midnight PST is 08:00 UTC, midnight PDT 07:00 UTC: try PDT first, keep the one that is midnight there.
  for (const utcHour of [7, 8]) {
    const c = new Date(Date.UTC(y, m - 1, d + 1, utcHour));
    const hour = new Intl.DateTimeFormat('en-US', { timeZone: PACIFIC, hour: '2-digit', hourCycle: 'h23' }).format(c);
    if (Number(hour) === 0) return c;
  }
  return new Date(Date.UTC(y, m - 1, d + 1, 8));
}

interface HashtagItem {
  tags?: Record<string, number>;
  version?: number;
}

/** The table-backed ledger of one tenant. */
export function tableLedger(table: Table, tenantId: string): SourceLedger {
  const tagKey = (account: string) => keys.record(tenantId, 'IGTAGS', account);
  const unitKey = (source: string, day: string) => keys.record(tenantId, 'UNITS', `${source}#${day}`);

  const readTags = async (account: string, now: Date) => {
    const item = (await table.get(tagKey(account), { consistent: true })) as HashtagItem | undefined;
    const cutoff = now.getTime() - IG_HASHTAG_WINDOW_MS;
    const tags = Object.fromEntries(Object.entries(item?.tags ?? {}).filter(([, t]) => t > cutoff));
    return { tags, version: item?.version };
  };

  return {
    async reserveHashtags(account, wanted, now) {
      for (let attempt = 0; ; attempt++) {
        const { tags, version } = await readTags(account, now);
        const allowed: string[] = [];
        const refused: string[] = [];
        for (const tag of wanted) {
          if (tag in tags) allowed.push(tag);
          else if (Object.keys(tags).length < IG_HASHTAG_LIMIT) {
            tags[tag] = now.getTime();
            allowed.push(tag);
          } else refused.push(tag);
        }
        const oldest = Math.min(...Object.values(tags));
        const result: HashtagReservation = {
          allowed,
          refused,
          used: Object.keys(tags).length,
          ...(refused.length && Number.isFinite(oldest) ? { nextFreeAt: new Date(oldest + IG_HASHTAG_WINDOW_MS) } : {}),
        };
        try {
          await table.put(
            { ...tagKey(account), tags, version: (version ?? 0) + 1, updated_at: now.toISOString() },
            {
              condition:
                version === undefined
                  ? { expression: 'attribute_not_exists(pk)' }
                  : { expression: '#v = :v', names: { '#v': 'version' }, values: { ':v': version } },
            },
          );
          return result;
        } catch (err) {
          // Another query of the tenant reserved at the same time: read again and retry.
          if ((err as Error).name !== 'ConditionFailedError' || attempt >= 8) throw err;
        }
      }
    },

    async hashtagsInWindow(account, now) {
      const { tags } = await readTags(account, now);
      return Object.entries(tags)
        .sort(([, a], [, b]) => a - b)
        .map(([tag, t]) => ({ tag, first_used_at: new Date(t).toISOString() }));
    },

    async units(source, limit, now) {
      const day = pacificDay(now);
      const item = await table.get(unitKey(source, day), { consistent: true });
      const used = typeof item?.used === 'number' ? item.used : 0;
      return { day, used, limit, remaining: Math.max(0, limit - used), resetsAt: nextPacificMidnight(now) };
    },

    async addUnits(source, units, now) {
      if (units <= 0) return;
      const day = pacificDay(now);
      await table.update(unitKey(source, day), { add: { used: units }, setIfAbsent: { source, day } });
    },

    async markExhausted(source, limit, now) {
      const day = pacificDay(now);
      const item = await table.get(unitKey(source, day), { consistent: true });
      const used = typeof item?.used === 'number' ? item.used : 0;
      if (used < limit) await table.update(unitKey(source, day), { add: { used: limit - used }, setIfAbsent: { source, day } });
    },
  };
}
