import * as z from 'zod';
import { runbookStepSchema } from '../scrapers/runbook-schema.js';
import { listRunbooks } from '../runbooks/runbooks.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';

/** Studio: what the runbook editor needs: the step catalogue (JSON Schema per action) and the runbooks. */
export async function studio(d: Deps, tenant: Tenant) {
  const schema = z.toJSONSchema(runbookStepSchema, { io: 'input', unrepresentable: 'any' }) as { oneOf?: unknown[]; anyOf?: unknown[] };
  const runbooks = await listRunbooks(d.table, tenant.tenant_id, { limit: 200 });
  return {
    steps: schema.oneOf ?? schema.anyOf ?? [schema],
    runbooks: runbooks.data.map((r) => ({ id: r.id, name: r.name, published: r.published, steps: r.steps.length, updated_at: r.updated_at })),
  };
}
