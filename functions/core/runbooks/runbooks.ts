import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import { forbidden, notFound } from '../errors.js';
import { runbookReferences, runbookStepsSchema, type RunbookStep } from '../scrapers/runbook-schema.js';
import type { QueryPage, Table } from '../../ports/table.js';

export const runbookBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).default(''),
  input_schema: z.record(z.string(), z.unknown()).default({ type: 'object', additionalProperties: true }),
  steps: runbookStepsSchema,
  published: z.boolean().default(false),
});
export type RunbookBody = z.infer<typeof runbookBodySchema>;

export const runbookRecordSchema = runbookBodySchema.extend({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RunbookRecord = z.infer<typeof runbookRecordSchema>;

const strip = (i: Record<string, unknown>): RunbookRecord => {
  const { pk: _p, sk: _s, tenant_id: _t, ...rest } = i;
  return runbookRecordSchema.parse(rest);
};

/** The scope that lets a key use tenant secrets in runbooks (routes.ts SCOPES). */
export const SECRETS_SCOPE = 'secrets:use';

/**
 * 403 unless the caller may use tenant secrets, when the steps fill one. Checked on runbook
 * create, update and test, and on runs of a runbook (the route's own scope is checked first).
 */
export function assertSecretsScope(scopes: readonly string[], steps: RunbookStep[] | { secrets?: string[] }): void {
  const secrets = Array.isArray(steps) ? runbookReferences(steps).secrets : (steps.secrets ?? []);
  if (secrets.length === 0 || scopes.includes('*') || scopes.includes(SECRETS_SCOPE)) return;
  throw forbidden(SECRETS_SCOPE);
}

export async function createRunbook(table: Table, tenantId: string, body: RunbookBody, now: Date): Promise<RunbookRecord> {
  const rec: RunbookRecord = { id: newId('rbk'), ...body, created_at: now.toISOString(), updated_at: now.toISOString() };
  await table.put({ ...keys.record(tenantId, 'RBK', rec.id), tenant_id: tenantId, ...rec });
  return rec;
}

export async function getRunbook(table: Table, tenantId: string, id: string): Promise<RunbookRecord> {
  const i = await table.get(keys.record(tenantId, 'RBK', id));
  if (!i) throw notFound('Runbook');
  return strip(i);
}

export async function updateRunbook(table: Table, tenantId: string, id: string, body: RunbookBody, now: Date): Promise<RunbookRecord> {
  const cur = await getRunbook(table, tenantId, id);
  const rec: RunbookRecord = { ...body, id, created_at: cur.created_at, updated_at: now.toISOString() };
  await table.put({ ...keys.record(tenantId, 'RBK', id), tenant_id: tenantId, ...rec });
  return rec;
}

export async function deleteRunbook(table: Table, tenantId: string, id: string): Promise<void> {
  const old = await table.delete(keys.record(tenantId, 'RBK', id));
  if (!old) throw notFound('Runbook');
}

export async function listRunbooks(table: Table, tenantId: string, q: { limit: number; cursor?: string }) {
  const page: QueryPage = await table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: 'RBK#', descending: true, limit: q.limit, cursor: q.cursor });
  return { data: page.items.map(strip), next_cursor: page.cursor };
}
