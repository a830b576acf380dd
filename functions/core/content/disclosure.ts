/**
 * Disclosures: accordions and FAQs, whose sections open on a click.
 *
 * - The trigger, the `<button>` that opens a section or an answer. Form controls are never
 *   content, but this one carries the section's title or the question itself (the ARIA accordion
 *   pattern puts it inside the heading: `<h3><button aria-expanded>Title</button></h3>`; FAQ
 *   widgets put the question, often a heading, inside the button). Read as text, it is content:
 *   on 23 of the 1,358 WCXB development pages a FAQ (declared in the page's JSON-LD too) came out
 *   without its questions.
 * - The panel, the section a closed disclosure hides (`hidden`, `aria-hidden`, `display:none`):
 *   content like a hidden tab's (prepare.ts keeps such panels on pages other than threads).
 */
import { HEADING_TAGS, holdsElement, isElement, leadingText, siblingIndex, type DomNode } from './dom.js';

// A question: words ending with a question mark (Latin, CJK full-width, Arabic, Greek).
const QUESTION = /\p{L}[^]*[?？؟\u037E]\s*$/u;
const MAX_QUESTION_CHARS = 300;
const TOGGLE_ATTRS = ['aria-expanded', 'aria-controls', 'data-toggle', 'data-bs-toggle'];

/**
 * The text of `el`, white space collapsed, up to `max` + 1 characters and a little more (a button's
 * label, a question: never long), without its scripts, styles and icons (dom.ts leadingText).
 */
const shortText = (el: DomNode, max: number): string => leadingText(el, max + 1, NOT_LABEL).trim();
const NOT_LABEL = new Set(['script', 'style', 'svg']);

/**
 * Whether the button `el` is a disclosure's trigger whose label is content: inside a heading, or
 * holding one, or a toggle (`aria-expanded`, `aria-controls`, a collapse toggle, a click handler
 * that toggles) labelled with a question or naming the section right after it.
 */
export function isDisclosureTrigger(el: DomNode): boolean {
  if (el.name !== 'button') return false;
  const p = el.parent;
  if ((p && HEADING_TAGS.has(p.name ?? '')) || holdsElement(el, HEADING_TAGS, 3)) return shortText(el, 1).length > 0;
  const a = el.attribs ?? {};
  if (!TOGGLE_ATTRS.some((k) => a[k] !== undefined) && !togglesOnClick(a)) return false;
  const text = shortText(el, MAX_QUESTION_CHARS);
  if (text.length > MAX_QUESTION_CHARS) return false;
  if (QUESTION.test(text)) return true;
  // An accordion section's title: the button names the block right after it (`aria-controls`),
  // and that block holds a paragraph. Not a generic control ("Show more", "Menu", "Filters").
  return text.length >= 3 && text.length <= MAX_TITLE_CHARS && !GENERIC_LABEL.test(text) && !!a['aria-controls'] && opensParagraphs(el, a['aria-controls']);
}

// A click handler of a framework or of the page's own script that opens or closes something
// (Alpine's `@click='toggleFaq(0)'`, Vue's `v-on:click`, Angular's `(click)`, `onclick`).
const CLICK_ATTRS = ['@click', 'x-on:click', 'v-on:click', '(click)', 'ng-click', 'onclick'];
// Its code names a toggle, or flips a flag (`open = !open`); "openChat()" opens no answer.
const TOGGLE_HANDLER = /toggle|expand|collapse|accordion|faq|answer|\b([\w$.]+)\s*=\s*!\s*\1\b/i;

/** Whether a click handler on the element opens or closes something. */
function togglesOnClick(a: Record<string, string>): boolean {
  return CLICK_ATTRS.some((k) => a[k] !== undefined && TOGGLE_HANDLER.test(a[k]!.slice(0, 200)));
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
    if (c.attribs?.id === id) return holdsElement(c, PARAGRAPH, 4);
  }
  return false;
}

const PARAGRAPH = new Set(['p']);

/** Whether `el` is a question: a short text ending with a question mark. */
function isQuestion(el: DomNode): boolean {
  const text = shortText(el, MAX_QUESTION_CHARS);
  return text.length <= MAX_QUESTION_CHARS && QUESTION.test(text);
}

/**
 * Whether `el` is a disclosure's panel: the body of a `<details>` (directly or in one wrapper), the
 * section a trigger before it names (`aria-controls` = its id), or the block right after a
 * question (a heading or a short line ending with a question mark: a FAQ's answer that the page's
 * script shows when the question is clicked) or right after a toggle that says whether it is open
 * (`aria-expanded`) without naming what it opens (an accordion's header: a course's module, then
 * its hidden lessons).
 */
export function isDisclosurePanel(el: DomNode): boolean {
  if (inDetails(el) || controlledByTrigger(el)) return true;
  const before = elementBefore(el);
  return !!before && (isQuestion(before) || (before.attribs?.['aria-expanded'] !== undefined && !before.attribs?.['aria-controls']));
}

/** The element just before `el`, blank text and comments aside; none when text comes first. */
function elementBefore(el: DomNode): DomNode | undefined {
  const siblings = el.parent?.children ?? [];
  for (let i = siblingIndex(el) - 1; i >= 0; i--) {
    const c = siblings[i]!;
    if ((c.type === 'text' && !(c.data ?? '').trim()) || c.type === 'comment') continue;
    return c.type === 'tag' ? c : undefined;
  }
  return undefined;
}

/** Whether `el` is the body of a `<details>`: a closed one's body is marked `aria-hidden` by some pages. */
function inDetails(el: DomNode): boolean {
  const p = el.parent;
  return p?.name === 'details' || (p?.parent?.name === 'details' && p.name !== 'summary');
}

// How many elements before a panel, and under each, the search for its trigger reads.
const TRIGGER_SPREAD = 4;

/**
 * A button that opens or closes a section (`aria-expanded`), labelled only for assistive technology
 * or by an icon ("Toggle More Information": Hyvä's attribute table): the section it names is a
 * panel. Not a site's menu, search, cart or account toggle.
 */
function sectionToggle(n: DomNode): boolean {
  const a = n.attribs ?? {};
  if (n.name !== 'button' || a['aria-expanded'] === undefined) return false;
  const label = `${a['aria-label'] ?? ''} ${shortText(n, MAX_TITLE_CHARS)}`;
  return !SITE_TOGGLE.test(label);
}
const SITE_TOGGLE = /\b(?:menu|nav(?:igation)?|search|cart|basket|bag|account|log ?in|sign ?in|filters?|sort|close|language|currency|country|region)\b/i;

/**
 * Whether a trigger before `el` (in the few elements before it, three levels up at most, four
 * levels down in each) names it as what it opens: bounded, however long the page's lists of panels.
 */
function controlledByTrigger(el: DomNode): boolean {
  const id = el.attribs?.id;
  if (!id) return false;
  const controls = (n: DomNode, depth: number): boolean => {
    if (n.attribs?.['aria-controls'] === id && (isDisclosureTrigger(n) || sectionToggle(n))) return true;
    if (depth === 0) return false;
    let seen = 0;
    for (const c of n.children ?? []) {
      if (c.type !== 'tag') continue;
      if (++seen > TRIGGER_SPREAD) return false;
      if (controls(c, depth - 1)) return true;
    }
    return false;
  };
  let n: DomNode = el;
  for (let level = 0; level < 3 && n.parent; level++, n = n.parent) {
    const siblings = n.parent.children ?? [];
    let seen = 0;
    for (let i = siblingIndex(n) - 1; i >= 0 && seen < TRIGGER_SPREAD; i--) {
      const sib = siblings[i]!;
      if (sib.type !== 'tag') continue;
      seen++;
      if (controls(sib, 4)) return true;
    }
  }
  return false;
}
