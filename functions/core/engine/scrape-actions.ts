import { AppError } from '../errors.js';
import type { PageAction } from '../scrapers/page-actions-schema.js';
import { ActionFailure, type PageActions } from './page-actions.js';

/** What the actions of one scrape produced. */
export interface ActionsOutcome {
  /** base64 PNGs of the `screenshot` actions, in order. */
  screenshots: string[];
}

/** Short reason of an action's error: no stack, first line only. */
function reasonOf(err: unknown): string {
  if (err instanceof ActionFailure || err instanceof AppError) return `${err.code}: ${err.message}`;
  const e = err as Error;
  if (e?.name === 'TimeoutError') return `timeout: ${e.message.split('\n')[0]}`;
  return (e?.message ?? String(err)).split('\n')[0]!;
}

/** Is this a refusal by governance (target policy, egress guard, robots), kept as it is? */
const isGovernance = (err: unknown): boolean =>
  (err instanceof AppError && (err.code === 'target_forbidden' || err.code === 'target_not_authorized')) ||
  (err instanceof Error && err.name === 'HopSkipped');

/**
 * Run a scrape's `actions` in order on the page (API.md "Page actions and freshness"), each
 * mapped onto the interpreter runbook steps use ({@link PageActions}): `wait` = wait_for or a
 * pause, `click` (every match with `all`), `write` = fill (a secret as runbook `fill` does),
 * `press`, `scroll` (`bottom` until the page stops growing), `screenshot`, together within
 * `timeoutMs` (an action that needs more fails as a timeout). A navigation an action
 * causes is governed like a redirect hop; its refusal is answered as such (403/400
 * `target_forbidden`, or the page ends as a robots skip). Any other failure is 422
 * `action_failed` naming the action (message `Action <index> (<type>) failed: <reason>`, details path `actions.<index>`).
 */
export async function runScrapeActions(actions: PageAction[], pa: PageActions, timeoutMs: number): Promise<ActionsOutcome> {
  const out: ActionsOutcome = { screenshots: [] };
  // All the actions together get `timeoutMs` (what is left of the page's time), not each its own.
  pa.limitTo(Date.now() + timeoutMs);
  for (const [index, a] of actions.entries()) {
    try {
      switch (a.type) {
        case 'wait':
          await pa.wait({ selector: a.selector, ms: a.ms, timeoutMs: a.selector ? (a.ms ?? timeoutMs) : undefined });
          break;
        case 'click':
          await pa.click(a.selector, { all: a.all });
          break;
        case 'write':
          await pa.fill(a.selector, a.text);
          break;
        case 'press':
          await pa.press(a.key);
          break;
        case 'scroll':
          await pa.scroll({ direction: a.direction, amount: a.amount });
          break;
        case 'screenshot':
          out.screenshots.push(await pa.screenshot(a.full_page));
          break;
      }
    } catch (err) {
      if (isGovernance(err)) {
        if (err instanceof AppError) err.message = `Action ${index} (${a.type}): ${err.message}`;
        throw err;
      }
      const reason = reasonOf(err);
      throw new AppError(422, 'action_failed', `Action ${index} (${a.type}) failed: ${reason}`, [{ path: `actions.${index}`, message: `${a.type}: ${reason}` }]);
    }
  }
  return out;
}
