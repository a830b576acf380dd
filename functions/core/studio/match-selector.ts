import { badRequest } from '../errors.js';
import { lazyEngine } from '../lazy-engine.js';

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
