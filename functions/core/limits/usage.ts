import { keys, monthOf } from '../table-keys.js';
import { paymentRequired } from '../errors.js';
import type { Table } from '../../ports/table.js';
import type { Tenant } from '../tenancy/tenants.js';

export type Meter = 'pages' | 'results';

/** Monthly usage counters (one item per tenant and month; atomic ADD). */
export async function addUsage(table: Table, tenantId: string, meter: Meter, n: number, now: Date): Promise<void> {
  if (n <= 0) return;
  await table.update(keys.usage(tenantId, monthOf(now)), { add: { [meter]: n } });
}

export async function getUsage(table: Table, tenantId: string, now: Date): Promise<Record<Meter, number>> {
  const i = await table.get(keys.usage(tenantId, monthOf(now)));
  return { pages: Number(i?.pages ?? 0), results: Number(i?.results ?? 0) };
}

/** 402 quota_exhausted when the plan's monthly quota for this meter is used up. */
export async function assertQuota(table: Table, tenant: Tenant, meter: Meter, now: Date): Promise<void> {
  const cap = meter === 'pages' ? tenant.limits.monthly_pages : tenant.limits.monthly_results;
  if (cap == null) return;
  const used = (await getUsage(table, tenant.tenant_id, now))[meter];
  if (used >= cap)
    throw paymentRequired(`The monthly ${meter} quota (${cap}) is used up; it resets at the start of next month (UTC)`, 'quota_exhausted');
}
