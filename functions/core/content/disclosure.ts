/**
 * A disclosure's trigger: the `<button>` that opens an accordion's section or a FAQ's answer. Form
 * controls are never content, but this one carries the section's title or the question itself
 * (the ARIA accordion pattern puts it inside the heading: `<h3><button aria-expanded>Title</button></h3>`;
 * FAQ widgets put the question, often a heading, inside the button). Read as text, it is content:
 * on 23 of the 1,358 WCXB development pages a FAQ (declared in the page's JSON-LD too) came out
 * without its questions.
 */
import { HEADING_TAGS, isElement, siblingIndex, type DomNode } from './dom.js';

// A question: words ending with a question mark (Latin, CJK full-width, Arabic, Greek).
const QUESTION = /\p{L}[^]*[?？؟\u037E]\s*$/u;
const MAX_QUESTION_CHARS = 300;
const TOGGLE_ATTRS = ['aria-expanded', 'aria-controls', 'data-toggle', 'data-bs-toggle'];

/** The text of `el`, up to `max` + 1 characters (a button's label, never long). */
function shortText(el: DomNode, max: number): string {
  let s = '';
  const walk = (n: DomNode): boolean => {
    for (const c of n.children ?? []) {
      if (c.type === 'text') s += c.data ?? '';
      else if (isElement(c) && c.name !== 'script' && c.name !== 'style' && c.name !== 'svg' && walk(c)) return true;
      if (s.length > max) return true;
    }
    return false;
  };
  walk(el);
  return s.replace(/\s+/g, ' ').trim();
}

/** Whether `el` holds a heading (h1-h6), looked for three levels down. */
function holdsHeading(el: DomNode, depth = 3): boolean {
  for (const c of el.children ?? []) {
    if (!isElement(c)) continue;
    if (HEADING_TAGS.has(c.name ?? '') || (depth > 1 && holdsHeading(c, depth - 1))) return true;
  }
  return false;
}

/**
 * Whether the button `el` is a disclosure's trigger whose label is content: inside a heading, or
 * holding one, or a toggle (`aria-expanded`, `aria-controls`, a collapse toggle) labelled with a
 * question.
 */
export function isDisclosureTrigger(el: DomNode): boolean {
  if (el.name !== 'button') return false;
  const p = el.parent;
  if ((p && HEADING_TAGS.has(p.name ?? '')) || holdsHeading(el)) return shortText(el, 1).length > 0;
  const a = el.attribs ?? {};
  if (!TOGGLE_ATTRS.some((k) => a[k] !== undefined)) return false;
  const text = shortText(el, MAX_QUESTION_CHARS);
  if (text.length > MAX_QUESTION_CHARS) return false;
  if (QUESTION.test(text)) return true;
  // An accordion section's title: the button names the block right after it (`aria-controls`),
  // and that block holds a paragraph. Not a generic control ("Show more", "Menu", "Filters").
  return text.length >= 3 && text.length <= MAX_TITLE_CHARS && !GENERIC_LABEL.test(text) && !!a['aria-controls'] && opensParagraphs(el, a['aria-controls']);
}

const MAX_TITLE_CHARS = 120;
const GENERIC_LABEL = /^(?:show|see|view|read|load)\s+(?:more|less|all)\b|^(?:more|less|expand|collapse|menu|filters?|sort(?: by)?|close|open|toggle|details|info)\b/i;

/** Whether one of the two elements after `el` has the id `id` and holds a paragraph. */
function opensParagraphs(el: DomNode, id: string): boolean {
  const siblings = el.parent?.children ?? [];
  let seen = 0;
  for (let i = siblingIndex(el) + 1; i < siblings.length && seen < 2; i++) {
    const c = siblings[i]!;
    if (!isElement(c)) continue;
    seen++;
    if (c.attribs?.id === id) return holdsTag(c, 'p', 4);
  }
  return false;
}

/** Whether `el` holds a `tag` element, `depth` levels down at most. */
function holdsTag(el: DomNode, tag: string, depth: number): boolean {
  for (const c of el.children ?? []) {
    if (!isElement(c)) continue;
    if (c.name === tag || (depth > 1 && holdsTag(c, tag, depth - 1))) return true;
  }
  return false;
}
