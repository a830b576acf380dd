import * as z from 'zod';
import { listRuns } from '../runs/run-reads.js';
import { listResultFiles } from '../storage/result-files.js';
import { keys } from '../table-keys.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';
import type { Table } from '../../ports/table.js';

export const datasetsQuery = z.strictObject({ kind: z.enum(['runs', 'files']).default('runs'), limit: z.coerce.number().int().min(1).max(200).default(50), cursor: z.string().max(2048).optional() });

/**
 * One string field of each record `ids` names (kind QRY or JOB), read once per distinct id: the
 * batch lookup that lets a page of files show prompts and job labels instead of ids. A record
 * that is gone is simply missing from the map.
 */
export async function recordField(table: Table, tenantId: string, kind: 'QRY' | 'JOB', ids: Array<string | null | undefined>, field: string): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter((x): x is string => !!x))];
  const out = new Map<string, string>();
  await Promise.all(unique.map(async (id) => {
    const item = await table.get(keys.record(tenantId, kind, id));
    const v = item?.[field];
    if (typeof v === 'string') out.set(id, v);
  }));
  return out;
}

/** The URL a run was started on (input.url, or the first of input.urls / start_urls), if any. */
export function runTarget(input: Record<string, unknown>): string | null {
  for (const k of ['url', 'start_url']) if (typeof input[k] === 'string') return input[k] as string;
  for (const k of ['urls', 'start_urls']) {
    const v = input[k];
    if (Array.isArray(v) && typeof v[0] === 'string') return v.length > 1 ? `${v[0]} (+${v.length - 1} more)` : v[0];
  }
  return null;
}

/**
 * Datasets: the collected data, as run item sets and stored query/job result files. Each row
 * carries a `label` people recognise (the query's prompt, the job's label, the run's target URL)
 * beside its id.
 */
export async function datasets(d: Deps, tenant: Tenant, q: z.infer<typeof datasetsQuery>) {
  if (q.kind === 'files') {
    const page = await listResultFiles(d.table, tenant.tenant_id, { limit: q.limit, cursor: q.cursor });
    const [prompts, jobs] = await Promise.all([
      recordField(d.table, tenant.tenant_id, 'QRY', page.data.map((f) => f.query_id), 'prompt'),
      recordField(d.table, tenant.tenant_id, 'JOB', page.data.map((f) => f.job_id), 'label'),
    ]);
    return {
      data: page.data.map((f) => ({
        id: f.key, kind: 'file', source: f.job_id ? `job ${f.job_id}` : `query ${f.query_id}`, size: f.size, created_at: f.created_at, url: `/v1/storage/${encodeURIComponent(f.key)}`,
        label: prompts.get(f.query_id) ?? null, job_label: f.job_id ? jobs.get(f.job_id) ?? null : null, query_id: f.query_id, job_id: f.job_id,
      })),
      next_cursor: page.next_cursor,
    };
  }
  const page = await listRuns(d, tenant.tenant_id, { limit: q.limit, cursor: q.cursor, status: 'succeeded' });
  return {
    data: page.data.map((r) => ({
      id: r.id, kind: 'run', source: r.scraper_id, items: r.progress.items, created_at: r.created_at, url: `/v1/runs/${r.id}/results`,
      label: runTarget(r.input), pages: r.progress.pages_done, finished_at: r.finished_at,
    })),
    next_cursor: page.next_cursor,
  };
}
