import { runBudgeted } from '../limits/budget-pool.js';
import { compileFilters } from './change-options.js';
import { compareVersions, prepare, type Comparison, type PageVersion } from './compare-versions.js';

/** Longest the comparison of one page may take (ms): normalising, line diff and field diff together. */
export const COMPARE_DEADLINE_MS = 10_000;
let deadlineMs = COMPARE_DEADLINE_MS;
/** Tests: a shorter deadline, to see an overrun; no argument restores {@link COMPARE_DEADLINE_MS}. */
export function setCompareDeadline(ms = COMPARE_DEADLINE_MS): void {
  deadlineMs = ms;
}

/** What the budget thread is given: plain data (the tenant's patterns as text, compiled there). */
export interface CompareInput {
  current: PageVersion;
  /** The baseline's snapshot: given, the two versions are compared; left out, only `current` is prepared. */
  previous?: PageVersion;
  labels?: { previous: string; current: string };
  ignore_patterns?: string[];
}

export interface CompareOutput {
  /** Hash of `current`'s compared form (the baseline's `hash`). */
  hash: string;
  /** Lines of `current` that count. */
  lines: number;
  comparison?: Comparison;
}

/** The comparison itself (pure; what the budget thread runs). */
export function compareInline(input: CompareInput): CompareOutput {
  const filters = compileFilters({ ignore_patterns: input.ignore_patterns });
  const cur = prepare(input.current, filters);
  const comparison = input.previous ? compareVersions(input.previous, input.current, input.labels ?? { previous: 'previous', current: 'current' }, filters) : undefined;
  return { hash: cur.hash, lines: cur.lines.length, ...(comparison ? { comparison } : {}) };
}

/**
 * {@link compareInline} under the budget of tenant-controlled work (limits/budget-pool.ts, issue 37
 * finding 1): page text is anyone's, so the comparison runs on a budget thread in the tenant's
 * turn, and past {@link COMPARE_DEADLINE_MS} (or the thread's heap bound) it is 422
 * `document_too_complex` while other tenants' work goes on.
 */
export function compareBudgeted(input: CompareInput, owner: string): Promise<CompareOutput> {
  return runBudgeted('document', 'changes.compare', input, { deadlineMs, owner, inline: () => compareInline(input) });
}
