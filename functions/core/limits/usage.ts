import { keys, monthOf } from '../table-keys.js';
import { paymentRequired } from '../errors.js';
import type { Table } from '../../ports/table.js';
import type { Tenant } from '../tenancy/tenants.js';

/** `model_tokens`: input plus output tokens of model extraction (the json format). */
/** `searches`: provider searches (POST /v1/search, MCP search, web-search runs). */
export type Meter = 'pages' | 'results' | 'model_tokens' | 'searches';

/** Monthly usage counters (one item per tenant and month; atomic ADD). */
export async function addUsage(table: Table, tenantId: string, meter: Meter, n: number, now: Date): Promise<void> {
  if (n <= 0) return;
  await table.update(keys.usage(tenantId, monthOf(now)), { add: { [meter]: n } });
}

export async function getUsage(table: Table, tenantId: string, now: Date): Promise<Record<Meter, number>> {
  const i = await table.get(keys.usage(tenantId, monthOf(now)));
  return { pages: Number(i?.pages ?? 0), results: Number(i?.results ?? 0), model_tokens: Number(i?.model_tokens ?? 0), searches: Number(i?.searches ?? 0) };
}

/** The tenant's monthly cap of a meter; null = unlimited. */
export const quotaOf = (tenant: Tenant, meter: Meter): number | null =>
  meter === 'pages' ? tenant.limits.monthly_pages : meter === 'results' ? tenant.limits.monthly_results : meter === 'searches' ? (tenant.limits.monthly_searches ?? null) : (tenant.limits.monthly_model_tokens ?? null);

/** Why a model call is refused at the token quota (402 quota_exceeded, or an item's json_error). */
export const modelQuotaMessage = (cap: number, used?: number) =>
  `The monthly model token quota (${cap}) is used up${used === undefined ? '' : ` (${used} used)`}; it resets at the start of next month (UTC)`;

/**
 * 402 when the plan's monthly quota for this meter is used up: `quota_exhausted` for pages and
 * results, `quota_exceeded` for model tokens and searches (API.md "Model extraction").
 */
export async function assertQuota(table: Table, tenant: Tenant, meter: Meter, now: Date): Promise<void> {
  await assertQuotas(table, tenant, [meter], now);
}

/** {@link assertQuota} for several meters with one read of the month's usage (none when all are unlimited). */
export async function assertQuotas(table: Table, tenant: Tenant, meters: Meter[], now: Date): Promise<void> {
  const capped = meters.filter((m) => quotaOf(tenant, m) != null);
  if (!capped.length) return;
  const usage = await getUsage(table, tenant.tenant_id, now);
  for (const meter of capped) quotaCheck(tenant, meter, usage[meter]);
}

function quotaCheck(tenant: Tenant, meter: Meter, used: number): void {
  const cap = quotaOf(tenant, meter)!;
  if (used >= cap) {
    if (meter === 'model_tokens')
      throw paymentRequired(modelQuotaMessage(cap, used), 'quota_exceeded');
    if (meter === 'searches')
      throw paymentRequired(`The monthly search quota (${cap}) is used up (${used} used); it resets at the start of next month (UTC)`, 'quota_exceeded');
    throw paymentRequired(`The monthly ${meter} quota (${cap}) is used up; it resets at the start of next month (UTC)`, 'quota_exhausted');
  }
}
