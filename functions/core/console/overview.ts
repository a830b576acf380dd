import * as z from 'zod';
import { activitySeries } from './activity-series.js';
import { listRuns } from '../runs/run-reads.js';
import { listQueries } from '../queries/queries.js';
import { listResultFiles } from '../storage/result-files.js';
import { listEncounters } from '../captcha/captcha.js';
import { getUsage } from '../limits/usage.js';
import { listSourceCredentials } from '../sources/credentials.js';
import { connectors } from '../sources/registry.js';
import { runbookStepSchema } from '../scrapers/runbook-schema.js';
import { listRunbooks } from '../runbooks/runbooks.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';

const DAY = 86_400_000;
const count = <T extends string>(xs: T[]) => xs.reduce<Record<string, number>>((m, x) => ((m[x] = (m[x] ?? 0) + 1), m), {});

/** Monitoring: the last 24 h of runs, queries and challenges, this month's usage against the plan. */
export async function monitoring(d: Deps, tenant: Tenant, now: Date) {
  const since = new Date(now.getTime() - DAY).toISOString();
  const runs = (await listRuns(d, tenant.tenant_id, { limit: 200 })).data.filter((r) => r.created_at >= since);
  const queries = (await listQueries(d.table, tenant.tenant_id, { limit: 200 })).data.filter((q) => q.created_at >= since);
  const enc = (await listEncounters(d.table, tenant.tenant_id, { limit: 200 })).data.filter((e) => e.detected_at >= since);
  return {
    window: { since, until: now.toISOString() },
    runs: { total: runs.length, by_status: count(runs.map((r) => r.status)), pages: runs.reduce((n, r) => n + r.progress.pages_done, 0), blocked_requests: runs.reduce((n, r) => n + r.stats.blocked_requests, 0), robots_skipped: runs.reduce((n, r) => n + r.stats.robots_skipped, 0) },
    queries: { total: queries.length, by_status: count(queries.map((q) => q.status)) },
    challenges: { total: enc.length, by_kind: count(enc.map((e) => e.kind)) },
    recent_failures: [
      ...runs.filter((r) => ['failed', 'timed_out', 'blocked'].includes(r.status)).map((r) => ({ kind: 'run', id: r.id, status: r.status, at: r.finished_at, error: r.error?.message ?? null })),
      ...queries.filter((q) => q.status === 'failed').map((q) => ({ kind: 'query', id: q.query_id, status: q.status, at: q.completed_at, error: q.error })),
    ].sort((a, b) => String(b.at).localeCompare(String(a.at))).slice(0, 20),
    usage: { month: now.toISOString().slice(0, 7), ...(await getUsage(d.table, tenant.tenant_id, now)), limits: tenant.limits },
    billing_status: tenant.billing_status,
    activity: activitySeries(runs, queries, { since: new Date(since), until: now }),
  };
}

export const datasetsQuery = z.strictObject({ kind: z.enum(['runs', 'files']).default('runs'), limit: z.coerce.number().int().min(1).max(200).default(50), cursor: z.string().max(2048).optional() });

/** Datasets: the collected data, as run item sets and stored query/job result files. */
export async function datasets(d: Deps, tenant: Tenant, q: z.infer<typeof datasetsQuery>) {
  if (q.kind === 'files') {
    const page = await listResultFiles(d.table, tenant.tenant_id, { limit: q.limit, cursor: q.cursor });
    return { data: page.data.map((f) => ({ id: f.key, kind: 'file', source: f.job_id ? `job ${f.job_id}` : `query ${f.query_id}`, size: f.size, created_at: f.created_at, url: `/v1/storage/${encodeURIComponent(f.key)}` })), next_cursor: page.next_cursor };
  }
  const page = await listRuns(d, tenant.tenant_id, { limit: q.limit, cursor: q.cursor, status: 'succeeded' });
  return { data: page.data.map((r) => ({ id: r.id, kind: 'run', source: r.scraper_id, items: r.progress.items, created_at: r.created_at, url: `/v1/runs/${r.id}/results` })), next_cursor: page.next_cursor };
}

/** Social: each source's connection state and its use by queries in the last 7 days. */
export async function social(d: Deps, tenant: Tenant, now: Date) {
  const configured = new Set((await listSourceCredentials(d.table, tenant.tenant_id)).map((c) => c.source));
  const since = new Date(now.getTime() - 7 * DAY).toISOString();
  const recent = (await listQueries(d.table, tenant.tenant_id, { limit: 200 })).data.filter((q) => q.created_at >= since);
  return {
    sources: Object.values(connectors).map((c) => ({
      source: c.name,
      configured: configured.has(c.name),
      queries_7d: recent.filter((q) => q.sources.includes(c.name)).length,
      access: c.accessNotes,
    })),
  };
}

/** Studio: what the runbook editor needs: the step catalogue (JSON Schema per action) and the runbooks. */
export async function studio(d: Deps, tenant: Tenant) {
  const schema = z.toJSONSchema(runbookStepSchema, { io: 'input', unrepresentable: 'any' }) as { oneOf?: unknown[]; anyOf?: unknown[] };
  const runbooks = await listRunbooks(d.table, tenant.tenant_id, { limit: 200 });
  return {
    steps: schema.oneOf ?? schema.anyOf ?? [schema],
    runbooks: runbooks.data.map((r) => ({ id: r.id, name: r.name, published: r.published, steps: r.steps.length, updated_at: r.updated_at })),
  };
}
