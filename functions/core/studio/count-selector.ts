import { runBudgeted } from '../limits/budget-pool.js';
import { matchSelector, type SelectorMatch } from './match-selector.js';

/** Longest a count may take (ms): Studio asks as the author types. */
export const MATCH_DEADLINE_MS = 5_000;

/**
 * `POST /dashboard/api/studio/match`: {@link matchSelector} on a budget thread, in the tenant's
 * turn (limits/budget-pool.ts). The HTML and the selector are both the tenant's: a selector
 * within the static limits can still take minutes on a page built for it, so past
 * {@link MATCH_DEADLINE_MS} the count is 422 `selector_too_complex` and the thread is ended.
 */
export function matchSelectorBudgeted(html: string, selector: string, owner: string): Promise<SelectorMatch> {
  return runBudgeted('selector', 'studio.match', { html, selector }, { deadlineMs: MATCH_DEADLINE_MS, owner, inline: () => matchSelector(html, selector) });
}
