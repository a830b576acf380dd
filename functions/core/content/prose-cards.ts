/**
 * Cards of prose (clean phase): a grid whose cards each say something of their own beside their
 * links, as a landing page's testimonials do (the author's name and company a link, the quote
 * not). Their link density reads like a menu's; their words are the page's.
 */
import { HEADING_TAGS, isElement, type DomNode } from './dom.js';
import type { Scored } from './score.js';
import { keptChildren, signature } from './select.js';

/**
 * What a card is: a block of blocks, not a paragraph (a story's paragraphs are alike too, and the
 * cleaner's line rules must still reach them).
 */
const CARD_TAGS = new Set(['div', 'li', 'article', 'section', 'figure', 'blockquote']);

/** Characters of prose, outside links, each card must hold. */
const CARD_PROSE = 40;

/**
 * A grid of three or more alike cards, each with a sentence or more of its own outside links
 * (testimonials whose authors' names are links): content, however link-dense the grid. Not
 * teasers, whose linked titles lead to their stories.
 */
export function cardsOfProse(el: DomNode, scored: Scored): boolean {
  const kids = keptChildren(el, scored).filter((c) => (scored.stats.get(c)?.text ?? 0) > 0);
  if (kids.length < 3) return false;
  const sig = signature(kids[0]!);
  return kids.every((c) => {
    const st = scored.stats.get(c)!;
    return CARD_TAGS.has(c.name ?? '') && signature(c) === sig && st.prose >= CARD_PROSE && st.text - st.link >= CARD_PROSE && !linkedHeading(c);
  });
}

/** Whether a heading in `el` is a link or inside one (a teaser's title, leading to its story). */
function linkedHeading(el: DomNode, inLink = false): boolean {
  for (const c of el.children ?? []) {
    if (!isElement(c)) continue;
    const link = inLink || c.name === 'a';
    if (HEADING_TAGS.has(c.name ?? '') && (link || hasLink(c))) return true;
    if (linkedHeading(c, link)) return true;
  }
  return false;
}

function hasLink(el: DomNode): boolean {
  return (el.children ?? []).some((c) => isElement(c) && (c.name === 'a' || hasLink(c)));
}
