import type { Table } from '../../ports/table.js';
import type { Secrets } from '../../ports/secrets.js';
import { getSourceCredentials, listSourceCredentials } from './credentials.js';
import { graphVersionStatus, type GraphVersionStatus } from './graph-versions.js';
import { IG_HASHTAG_LIMIT, IG_HASHTAG_WINDOW_MS, tableLedger, YOUTUBE_DEFAULT_DAILY_UNITS } from './source-ledger.js';

/** What the console's Social area shows about quotas and platform versions. */
export interface SourceStatus {
  graph_api: GraphVersionStatus;
  /** Human warnings (Graph version retiring, quota spent); empty when all is well. */
  warnings: string[];
  quotas: {
    youtube: { unit: 'units'; day: string; used: number; limit: number; remaining: number; resets_at: string } | null;
    instagram: { account: string; unit: 'hashtags'; used: number; limit: number; remaining: number; next_free_at: string | null; hashtags: string[] } | null;
  };
}

/**
 * Platform warnings for monitoring: the Graph API version's retirement as it approaches (or past).
 * Cheap (no table read): monitoring calls it on every load.
 */
export function platformWarnings(graphApiVersion: string, now: Date): string[] {
  const g = graphVersionStatus(graphApiVersion, now);
  return g.warning ? [g.warning] : [];
}

/**
 * Quotas of a tenant's metered sources, for the Social page: YouTube units used today (Pacific day)
 * against the project's daily quota, and the Instagram account's hashtag budget over 7 days.
 */
export async function sourceStatus(d: { table: Table; secrets: Secrets }, tenantId: string, graphApiVersion: string, now: Date): Promise<SourceStatus> {
  const ledger = tableLedger(d.table, tenantId);
  const configured = new Set((await listSourceCredentials(d.table, tenantId)).map((c) => c.source));
  const warnings = platformWarnings(graphApiVersion, now);

  let youtube: SourceStatus['quotas']['youtube'] = null;
  if (configured.has('youtube')) {
    const creds = await getSourceCredentials(d.table, d.secrets, tenantId, 'youtube');
    const n = Number(creds?.daily_quota);
    const u = await ledger.units('youtube', Number.isInteger(n) && n > 0 ? n : YOUTUBE_DEFAULT_DAILY_UNITS, now);
    youtube = { unit: 'units', day: u.day, used: u.used, limit: u.limit, remaining: u.remaining, resets_at: u.resetsAt.toISOString() };
    if (u.remaining === 0) warnings.push(`YouTube Data API quota spent for today; it resets at ${u.resetsAt.toISOString()}`);
  }

  let instagram: SourceStatus['quotas']['instagram'] = null;
  if (configured.has('instagram')) {
    const account = (await getSourceCredentials(d.table, d.secrets, tenantId, 'instagram'))?.ig_user_id;
    if (account) {
      const tags = await ledger.hashtagsInWindow(account, now);
      const oldest = tags[0] ? Date.parse(tags[0].first_used_at) + IG_HASHTAG_WINDOW_MS : undefined;
      instagram = {
        account,
        unit: 'hashtags',
        used: tags.length,
        limit: IG_HASHTAG_LIMIT,
        remaining: Math.max(0, IG_HASHTAG_LIMIT - tags.length),
        next_free_at: tags.length >= IG_HASHTAG_LIMIT && oldest ? new Date(oldest).toISOString() : null,
        hashtags: tags.map((t) => t.tag),
      };
      if (tags.length >= IG_HASHTAG_LIMIT) warnings.push(`Instagram hashtag budget of account ${account} is spent (30 unique hashtags per 7 days)`);
    }
  }
  return { graph_api: graphVersionStatus(graphApiVersion, now), warnings, quotas: { youtube, instagram } };
}
