import { badRequest } from '../errors.js';
import { lazyEngine } from '../lazy-engine.js';
import { runBudgeted } from '../limits/budget-pool.js';

type SelectorEngine = typeof import('../scrapers/selector-engine.js');
/** cheerio's slim build, loaded on the first count (as input-fields.ts does for selector checks). */
const selectorEngine = lazyEngine<SelectorEngine>(import.meta.url, 'cheerio/slim', () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild's lazy module init (lazy-engine.ts)
  require('../scrapers/selector-engine.js'),
);

/** What Studio's selector count answers. */
export interface SelectorMatch {
  selector: string;
  count: number;
  samples: string[];
}

/**
 * How many elements of a preview's HTML a selector matches, with the project's selector engine
 * (cheerio: what `extract` steps and css-extract use), and the text of the first few. An
 * invalid selector is 400 `invalid_request` with the engine's reason.
 */
export function matchSelector(html: string, selector: string): SelectorMatch {
  const $ = selectorEngine().load(html);
  let m;
  try {
    m = $(selector);
  } catch (e) {
    throw badRequest(`Not a valid CSS selector: ${(e as Error).message.split('\n')[0]}`, [{ path: 'body.selector', message: 'not a valid CSS selector' }]);
  }
  const samples = m
    .slice(0, 3)
    .toArray()
    .map((el) => $(el).text().replace(/\s+/g, ' ').trim().slice(0, 80));
  return { selector, count: m.length, samples };
}

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
