import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import { AppError, notFound } from '../errors.js';
import type { Deps } from '../../runtime.js';

/**
 * Synchronous calls that need the scrape engine (POST /v1/scrape, runbook tests) run in the
 * runs worker, where Chromium lives; the API function waits for the result. This keeps API
 * bundles free of Chromium and puppeteer, and gives both paths the same governance.
 */
export type TaskKind = 'scrape' | 'runbook.test' | 'studio.preview' | 'search';

export const taskRecordSchema = z.object({
  task_id: z.string(),
  kind: z.enum(['scrape', 'runbook.test', 'studio.preview', 'search']),
  status: z.enum(['pending', 'done', 'failed']),
  request: z.record(z.string(), z.unknown()),
  error: z.object({ code: z.string(), message: z.string(), status: z.number(), details: z.array(z.object({ path: z.string(), message: z.string() })).optional(), retry_after: z.union([z.string(), z.number().int().positive()]).optional() }).nullable(),
  created_at: z.string(),
  expires_at: z.number(),
  /** Where the task was asked for (audit records of its model calls); absent = the REST API. */
  surface: z.enum(['api', 'console', 'mcp', 'scheduler']).optional(),
});
export type TaskRecord = z.infer<typeof taskRecordSchema>;

const resultKey = (tenantId: string, taskId: string) => `tenants/${tenantId}/tasks/${taskId}.json`;

export async function startTask(d: Deps, tenantId: string, kind: TaskKind, request: Record<string, unknown>, now: Date, surface?: TaskRecord['surface']): Promise<TaskRecord> {
  const t: TaskRecord = { task_id: newId('req'), kind, status: 'pending', request, error: null, created_at: now.toISOString(), expires_at: Math.floor(now.getTime() / 1000) + 3600, ...(surface ? { surface } : {}) };
  await d.table.put({ ...keys.record(tenantId, 'TASK', t.task_id), ...t });
  await d.queue.send('runs', { kind: 'task.run', tenant_id: tenantId, task_id: t.task_id });
  return t;
}

export async function getTask(d: Deps, tenantId: string, taskId: string): Promise<TaskRecord> {
  const i = await d.table.get(keys.record(tenantId, 'TASK', taskId), { consistent: true });
  if (!i) throw notFound('Task');
  return taskRecordSchema.parse(i);
}

/** Worker side: store the result (blob) then mark done; or mark failed with an error the API maps back. */
export async function completeTask(d: Deps, tenantId: string, taskId: string, result: unknown): Promise<void> {
  await d.blobs.put('results', resultKey(tenantId, taskId), JSON.stringify(result));
  await d.table.update(keys.record(tenantId, 'TASK', taskId), { set: { status: 'done' } });
}

export async function failTask(d: Deps, tenantId: string, taskId: string, err: { code: string; message: string; status: number; details?: { path: string; message: string }[]; retry_after?: string | number }): Promise<void> {
  await d.table.update(keys.record(tenantId, 'TASK', taskId), { set: { status: 'failed', error: err } });
}

/** API side: wait for the worker; 504 when it takes longer than the caller allowed. */
export async function awaitTask(d: Deps, tenantId: string, taskId: string, timeoutMs: number): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  let delay = 25;
  for (;;) {
    const t = await getTask(d, tenantId, taskId);
    if (t.status === 'done') {
      const raw = await d.blobs.get('results', resultKey(tenantId, taskId));
      if (!raw) throw new AppError(500, 'internal_error', 'The result is missing');
      await d.blobs.delete('results', resultKey(tenantId, taskId)).catch(() => undefined);
      return JSON.parse(Buffer.from(raw).toString('utf8'));
    }
    // retry_after (seconds): a search provider's 429, or a host whose politeness let no request start in time (429 host_busy).
    if (t.status === 'failed' && t.error) throw new AppError(t.error.status, t.error.code, t.error.message, t.error.details, t.error.retry_after ? { 'retry-after': String(t.error.retry_after) } : undefined);
    if (Date.now() > deadline) throw new AppError(504, 'scrape_timeout', `The scrape did not finish within ${Math.round(timeoutMs / 1000)} s; use POST /v1/runs for long work`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(250, delay * 2);
  }
}
