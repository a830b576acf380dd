import { AppError } from '../errors.js';

/**
 * Budgets for untrusted work (DESIGN.md "Budgets for untrusted work", issue 27): work whose cost a
 * tenant controls (a JSON Schema to compile and validate against, selectors to match, a PDF to
 * read, a sitemap to parse) runs under a budget the service enforces. Callers name the budget
 * (a {@link BudgetKind}); the mechanism (budget-pool.ts: a worker thread with V8 resource limits,
 * terminated at the deadline) enforces it; an overrun is one error family, 422
 * `<kind>_too_complex`, naming the limit that was hit. Never a 5xx: the request was too much,
 * not the service broken.
 *
 * Static limits (selector-limits.ts, schema-complexity.ts, the linear sitemap parser) refuse what
 * is certainly too much before any of this runs.
 */

/** What a budget is for: the error code is `<kind>_too_complex`. */
export type BudgetKind = 'schema' | 'selector' | 'document';

/** A budget: the work stops at `deadlineMs` (wall clock, from when it starts) or past `memoryMb` of heap. */
export interface Budget {
  kind: BudgetKind;
  deadlineMs: number;
}

/** The heap bound of every budgeted worker thread, in MB (V8 `maxOldGenerationSizeMb`). */
export const BUDGET_HEAP_MB = 192;
/** Young generation of a budgeted thread, in MB. */
export const BUDGET_YOUNG_MB = 16;

/** Default deadlines per kind, in ms: far above what honest input needs (a schema compiles in ~5 ms). */
export const BUDGET_DEADLINES: Record<BudgetKind, number> = {
  schema: 2_000,
  selector: 5_000,
  document: 30_000,
};

/** The 422 of an overrun: `schema_too_complex`, `selector_too_complex`, `document_too_complex`. */
export function tooComplex(kind: BudgetKind, limit: string): AppError {
  const what = kind === 'schema' ? 'The JSON Schema' : kind === 'selector' ? 'The CSS selector' : 'The document';
  const path = kind === 'schema' ? 'json_options.schema' : kind === 'selector' ? 'selector' : 'url';
  return new AppError(422, `${kind}_too_complex`, `${what} is too complex to process: ${limit}`, [{ path, message: limit }]);
}

/** True for an error of the `*_too_complex` family. */
export const isTooComplex = (e: unknown): e is AppError => e instanceof AppError && /_too_complex$/.test(e.code);
