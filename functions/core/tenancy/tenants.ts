import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import { notFound } from '../errors.js';
import { targetPolicySchema } from '../governance/target-policy.js';
import { checkForStore, parseStored, parseStoredAll } from '../stored.js';
import type { Table } from '../../ports/table.js';

export const billingStatuses = ['active', 'past_due', 'suspended'] as const;
export type BillingStatus = (typeof billingStatuses)[number];

export { targetPolicySchema };

/** Defaults of the job limits: 100 jobs, none firing more often than every 5 minutes. */
export const DEFAULT_MAX_JOBS = 100;
export const DEFAULT_MIN_JOB_INTERVAL_SECONDS = 300;

/** Stored shape, validated when read back (zod at every edge, the table included). */
export const tenantSchema = z.object({
  tenant_id: z.string(),
  name: z.string(),
  billing_status: z.enum(billingStatuses),
  limits: z.object({
    rate_requests: z.number().int().positive(),
    rate_seconds: z.number().int().positive(),
    monthly_pages: z.number().int().positive().nullable(),
    monthly_results: z.number().int().positive().nullable(),
    /** Input plus output tokens of model extraction per month; absent in tenants stored before it existed. */
    monthly_model_tokens: z.number().int().positive().nullable().default(null),
    /** Provider searches per month (API.md "Search"); absent in tenants stored before it existed. */
    monthly_searches: z.number().int().positive().nullable().default(null),
    /** Scheduled jobs the tenant may hold (issue 37 finding 4); absent in tenants stored before it existed. */
    max_jobs: z.number().int().positive().default(DEFAULT_MAX_JOBS),
    /** The shortest interval between two fires of one job's schedule, in seconds (at least a minute, cron's step). */
    min_job_interval_seconds: z.number().int().min(60).default(DEFAULT_MIN_JOB_INTERVAL_SECONDS),
  }),
  target_policy: targetPolicySchema,
  created_at: z.string(),
});
export type Tenant = z.infer<typeof tenantSchema>;

export const DEFAULT_LIMITS: Tenant['limits'] = {
  rate_requests: 600, rate_seconds: 60, monthly_pages: null, monthly_results: null, monthly_model_tokens: null, monthly_searches: null,
  max_jobs: DEFAULT_MAX_JOBS, min_job_interval_seconds: DEFAULT_MIN_JOB_INTERVAL_SECONDS,
};

const toItem = (t: Tenant) => ({ ...keys.tenant(t.tenant_id), gsi1pk: keys.tenantIndex(), gsi1sk: t.tenant_id, ...checkForStore(tenantSchema, t, 'tenant') });
const fromItem = (i: Record<string, unknown>): Tenant | undefined => parseStored(tenantSchema, i, 'tenant');

/** Create a tenant (billing active, default limits, open target policy). */
export async function createTenant(table: Table, name: string, now: Date, tenantId = newId('ten')): Promise<Tenant> {
  const t: Tenant = {
    tenant_id: tenantId,
    name,
    billing_status: 'active',
    limits: DEFAULT_LIMITS,
    target_policy: { mode: 'open', domains: [] },
    created_at: now.toISOString(),
  };
  await table.put(toItem(t), { condition: { expression: 'attribute_not_exists(pk)' } });
  return t;
}

/** `consistent`: the record as last written (a policy change just made elsewhere), not a replica's copy. */
export async function getTenant(table: Table, tenantId: string, opts: { consistent?: boolean } = {}): Promise<Tenant | undefined> {
  const i = await table.get(keys.tenant(tenantId), opts.consistent ? { consistent: true } : undefined);
  return i ? fromItem(i) : undefined;
}

export async function requireTenant(table: Table, tenantId: string, opts: { consistent?: boolean } = {}): Promise<Tenant> {
  const t = await getTenant(table, tenantId, opts);
  if (!t) throw notFound('Tenant');
  return t;
}

export async function listTenants(table: Table): Promise<Tenant[]> {
  const out: Tenant[] = [];
  let cursor: string | undefined;
  do {
    const page = await table.query({ index: 'gsi1', pk: keys.tenantIndex(), cursor, limit: 200 });
    // An unreadable tenant is reported and left out: the others (and a restart) still work.
    out.push(...parseStoredAll(tenantSchema, page.items, 'tenant'));
    cursor = page.cursor ?? undefined;
  } while (cursor);
  return out;
}

async function patchTenant(table: Table, tenantId: string, patch: Partial<Tenant>): Promise<Tenant> {
  // The same schema that reads the record back checks each field before it is written.
  const set = checkForStore(tenantSchema.partial(), patch, 'body') as Partial<Tenant>;
  try {
    const i = await table.update(keys.tenant(tenantId), { set, condition: { expression: 'attribute_exists(pk)' } });
    const t = fromItem(i);
    if (!t) throw notFound('Tenant');
    return t;
  } catch (e) {
    if ((e as Error).name === 'ConditionFailedError') throw notFound('Tenant');
    throw e;
  }
}

export const setBilling = (table: Table, tenantId: string, status: BillingStatus) =>
  patchTenant(table, tenantId, { billing_status: status });
export const setLimits = (table: Table, tenantId: string, limits: Tenant['limits']) => patchTenant(table, tenantId, { limits });
export const setTargetPolicy = (table: Table, tenantId: string, target_policy: Tenant['target_policy']) =>
  patchTenant(table, tenantId, { target_policy });
