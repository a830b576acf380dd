import { runBudgeted } from '../limits/budget-pool.js';
import { comparePage, type CompareInput, type CompareOutput } from './compare-page.js';

export type { CompareInput, CompareOutput } from './compare-page.js';

/** Longest the comparison of one page may take (ms): normalising, line diff and field diff together. */
export const COMPARE_DEADLINE_MS = 10_000;
let deadlineMs = COMPARE_DEADLINE_MS;
/** Tests: a shorter deadline, to see an overrun; no argument restores {@link COMPARE_DEADLINE_MS}. */
export function setCompareDeadline(ms = COMPARE_DEADLINE_MS): void {
  deadlineMs = ms;
}

/**
 * {@link comparePage} under the budget of tenant-controlled work (limits/budget-pool.ts, issue 37
 * finding 1): page text is anyone's, so the comparison runs on a budget thread in the tenant's
 * turn, and past {@link COMPARE_DEADLINE_MS} (or the thread's heap bound) it is 422
 * `document_too_complex` while other tenants' work goes on.
 */
export function compareBudgeted(input: CompareInput, owner: string): Promise<CompareOutput> {
  return runBudgeted('document', 'changes.compare', input, { deadlineMs, owner, inline: () => comparePage(input) });
}
