import { AppError } from '../errors.js';
import { tooComplex } from './budget.js';

/**
 * The budgeted tasks, by name, as types: their code is in budget-thread.ts (the thread's own
 * registry), so that importing the pool never bundles ajv, cheerio or pdf.js into a handler.
 */
type Tasks = typeof import('./budget-thread-tasks.js').BUDGET_TASKS;
export type BudgetTaskName = keyof Tasks;
export type BudgetTaskInput<N extends BudgetTaskName> = Parameters<Tasks[N]>[0];
export type BudgetTaskOutput<N extends BudgetTaskName> = Awaited<ReturnType<Tasks[N]>>;

/** An error as it crosses the thread boundary: AppErrors keep their status, code and details. */
export interface SerializedError {
  status?: number;
  code?: string;
  message: string;
  details?: unknown;
}

export const serializeError = (e: unknown): SerializedError =>
  e instanceof AppError
    ? { status: e.status, code: e.code, message: e.message, details: e.details }
    : { message: e instanceof Error ? e.message : String(e) };

export function deserializeError(s: SerializedError): Error {
  if (s.status !== undefined && s.code !== undefined) return new AppError(s.status, s.code, s.message, s.details as never);
  return new Error(s.message);
}

/** A stack overflow inside a task (a recursive schema applied to deep data) is the input's fault. */
export function mapTaskError(kind: 'schema' | 'selector' | 'document', e: unknown): unknown {
  if (e instanceof RangeError && /call stack/i.test(e.message)) return tooComplex(kind, 'it recurses too deeply');
  return e;
}
