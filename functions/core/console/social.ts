import { listQueries } from '../queries/queries.js';
import { listSourceCredentials } from '../sources/credentials.js';
import { connectors } from '../sources/registry.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';

const DAY = 86_400_000;

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
