import { AppError } from '../errors.js';
import { tooComplex } from './budget.js';

/**
 * The budgeted tasks, by name: what runs on a budget thread (budget-thread.ts), or inline where
 * no thread can be started. Each takes and returns plain data (structured-cloned between threads)
 * and loads its library on first use, so a thread that only checks schemas never loads pdf.js.
 */
export const BUDGET_TASKS = {
  /** A caller's JSON Schema: static complexity limits, then compiled (400 invalid / 422 too complex). */
  async 'schema.check'(input: { schema: Record<string, unknown> }): Promise<void> {
    const { compileSchema } = await import('../extraction/schema-compile.js');
    compileSchema(input.schema);
  },
  /** A model's answer against the caller's schema: the problems, [] when valid. */
  async 'schema.validate'(input: { schema: Record<string, unknown>; json: unknown }): Promise<{ valid: boolean; problems: string[] }> {
    const { validateAgainst } = await import('../extraction/schema-compile.js');
    return validateAgainst(input.schema, input.json);
  },
  /** One HTML page parsed, matched against the tenant's selectors and extracted (engine/shape-page.ts). */
  async 'page.shape'(input: { html: string; spec: import('../engine/shape-page.js').ShapeSpec }) {
    const { shapePage } = await import('../engine/shape-page.js');
    return shapePage(input.html, input.spec);
  },
  /** A PDF: metadata, markdown and text (content/pdf.ts), its compressed streams bounded first. */
  async 'pdf.read'(input: { bytes: Uint8Array; maxPages?: number }) {
    const { readPdf } = await import('../content/pdf.js');
    return readPdf(input.bytes, { maxPages: input.maxPages });
  },
};

export type BudgetTaskName = keyof typeof BUDGET_TASKS;
export type BudgetTaskInput<N extends BudgetTaskName> = Parameters<(typeof BUDGET_TASKS)[N]>[0];
export type BudgetTaskOutput<N extends BudgetTaskName> = Awaited<ReturnType<(typeof BUDGET_TASKS)[N]>>;

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
