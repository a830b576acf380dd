import * as z from 'zod';
import { listRuns } from '../runs/run-reads.js';
import { listResultFiles } from '../storage/result-files.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';

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
