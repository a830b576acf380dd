/**
 * A page's readable version kept in a `<noscript>`: the HTML parser runs with scripting on, so a
 * `<noscript>`'s content is one raw text node, never elements. Some applications serve their whole
 * readable page there for clients without JavaScript and show nothing else without scripts
 * (Discourse forums put every post of a thread in one). These helpers find that markup and parse
 * it (a fragment parse of that one element's text, only when the page needs it).
 */
import { load } from 'cheerio';
import { isElement, type DomNode } from './dom.js';

/** Markup in a `<noscript>` this long may be the page itself (not a tracking pixel or a "turn on JavaScript" line). */
export const MIN_NOSCRIPT_MARKUP = 2000;

/** The longest `<noscript>` markup under `root` that holds blocks of text, if any is long enough. */
export function noscriptMarkup(root: DomNode): string | undefined {
  let best: string | undefined;
  const walk = (n: DomNode) => {
    for (const c of n.children ?? []) {
      if (!isElement(c)) continue;
      if (c.name === 'noscript') {
        const raw = (c.children ?? []).map((t) => t.data ?? '').join('');
        if (raw.length >= MIN_NOSCRIPT_MARKUP && raw.length > (best?.length ?? 0) && /<(?:p|div|article|section)\b/i.test(raw)) best = raw;
        continue;
      }
      if (c.name === 'script' || c.name === 'style' || c.name === 'template' || c.name === 'svg') continue;
      walk(c);
    }
  };
  walk(root);
  return best;
}

/** `markup` parsed as a fragment: its root node. */
export function parseFragment(markup: string): DomNode {
  return load(markup, null, false).root().get(0) as unknown as DomNode;
}
