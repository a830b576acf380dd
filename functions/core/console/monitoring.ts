import * as z from 'zod';
import { activitySeries } from './activity-series.js';
import { listRuns } from '../runs/run-reads.js';
import { runTarget } from './datasets.js';
import { listQueries } from '../queries/queries.js';
import { listEncounters } from '../captcha/captcha.js';
import { getUsage } from '../limits/usage.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';

// One module per console overview page (monitoring, datasets, social, studio): each page's
// function bundles only what its page reads.

const HOUR = 3_600_000;

/** The windows the monitoring page offers, with the bucket size that keeps each chart readable. */
export const MONITORING_RANGES = { '1h': { ms: HOUR, bucket_s: 300 }, '24h': { ms: 24 * HOUR, bucket_s: 3600 }, '7d': { ms: 7 * 24 * HOUR, bucket_s: 6 * 3600 }, '30d': { ms: 30 * 24 * HOUR, bucket_s: 24 * 3600 } } as const;
export type MonitoringRange = keyof typeof MONITORING_RANGES;
export const monitoringQuery = z.strictObject({ range: z.enum(Object.keys(MONITORING_RANGES) as [MonitoringRange, ...MonitoringRange[]]).default('24h') });
const count = <T extends string>(xs: T[]) => xs.reduce<Record<string, number>>((m, x) => ((m[x] = (m[x] ?? 0) + 1), m), {});

/**
 * Monitoring: runs, queries and challenges of the window `range` (default the last 24 h; the
 * newest 200 of each are read), this month's usage against the plan.
 */
export async function monitoring(d: Deps, tenant: Tenant, now: Date, range: MonitoringRange = '24h') {
  const win = MONITORING_RANGES[range];
  const since = new Date(now.getTime() - win.ms).toISOString();
  const runs = (await listRuns(d, tenant.tenant_id, { limit: 200 })).data.filter((r) => r.created_at >= since);
  const queries = (await listQueries(d.table, tenant.tenant_id, { limit: 200 })).data.filter((q) => q.created_at >= since);
  const enc = (await listEncounters(d.table, tenant.tenant_id, { limit: 200 })).data.filter((e) => e.detected_at >= since);
  return {
    window: { since, until: now.toISOString(), range },
    runs: { total: runs.length, by_status: count(runs.map((r) => r.status)), pages: runs.reduce((n, r) => n + r.progress.pages_done, 0), blocked_requests: runs.reduce((n, r) => n + r.stats.blocked_requests, 0), robots_skipped: runs.reduce((n, r) => n + r.stats.robots_skipped, 0) },
    queries: { total: queries.length, by_status: count(queries.map((q) => q.status)) },
    challenges: { total: enc.length, by_kind: count(enc.map((e) => e.kind)) },
    recent_failures: [
      // label: what people recognise the run or query by (its target URL, its prompt).
      ...runs.filter((r) => ['failed', 'timed_out', 'blocked'].includes(r.status)).map((r) => ({ kind: 'run', id: r.id, status: r.status, at: r.finished_at, error: r.error?.message ?? null, label: runTarget(r.input) })),
      ...queries.filter((q) => q.status === 'failed').map((q) => ({ kind: 'query', id: q.query_id, status: q.status, at: q.completed_at, error: q.error, label: q.prompt })),
    ].sort((a, b) => String(b.at).localeCompare(String(a.at))).slice(0, 20),
    usage: { month: now.toISOString().slice(0, 7), ...(await getUsage(d.table, tenant.tenant_id, now)), limits: tenant.limits },
    billing_status: tenant.billing_status,
    activity: activitySeries(runs, queries, { since: new Date(since), until: now }, win.bucket_s),
  };
}
