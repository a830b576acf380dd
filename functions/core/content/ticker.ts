/**
 * A ticker (marquee): one short phrase written again and again as sibling blocks, so a CSS
 * animation can scroll it without a gap ("Book Now * Book Now * …", "SECURE YOUR SPOT - ENROL
 * NOW" twelve times over). It says one thing once at most, and that thing is a banner's call to
 * action, not the page's content: the whole block is furniture. Read per element on the way down
 * (prepare.ts); only an element with {@link MIN_REPEATS} or more element children is looked at,
 * each child's text read no further than {@link MAX_PHRASE} characters.
 */
import { holdsElement, isElement, leadingText, squash, type DomNode } from './dom.js';

/** Siblings that must all say the same thing. */
const MIN_REPEATS = 4;
/** A ticker's phrase is a line, not a paragraph. */
const MAX_PHRASE = 80;
/** Children read at most (a long run of equal siblings is a ticker by its first dozens). */
const MAX_CHILDREN = 64;
/** Containers a ticker is written in. */
const TICKER_TAGS: ReadonlySet<string> = new Set(['div', 'ul', 'ol', 'p', 'span', 'section', 'marquee']);
/**
 * Children that make no ticker: code and a table's parts (repeated lines there are content), and
 * links (a row of alike links is a menu or a rail of teasers, judged as links elsewhere): an item
 * that is or holds one ({@link LINK_DEPTH} levels down) makes no ticker.
 */
const NOT_ITEMS: ReadonlySet<string> = new Set(['pre', 'code', 'table', 'tr', 'tbody', 'thead', 'a']);
const LINK: ReadonlySet<string> = new Set(['a']);
const LINK_DEPTH = 4;
const LETTERS = /\p{L}{2}/u;

/** Whether `el` is a ticker: four or more element children, no text of its own, all of one short phrase with letters. */
export function isTicker(el: DomNode): boolean {
  if (!TICKER_TAGS.has(el.name ?? '')) return false;
  const kids = el.children ?? [];
  if (kids.length < MIN_REPEATS) return false;
  let phrase: string | undefined;
  let count = 0;
  for (const c of kids) {
    if (c.type === 'text') {
      if ((c.data ?? '').trim()) return false;
      continue;
    }
    if (!isElement(c)) continue;
    if (NOT_ITEMS.has(c.name ?? '')) return false;
    if (++count > MAX_CHILDREN) break;
    const t = squash(leadingText(c, MAX_PHRASE));
    if (!t || t.length > MAX_PHRASE) return false;
    if (phrase === undefined) {
      if (!LETTERS.test(t)) return false;
      phrase = t;
    } else if (t !== phrase) return false;
    // Looked for only once the texts agree (most blocks' children differ at the second).
    if (holdsElement(c, LINK, LINK_DEPTH)) return false;
  }
  return count >= MIN_REPEATS;
}
