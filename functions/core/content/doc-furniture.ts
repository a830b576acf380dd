/**
 * Documentation pages: what frames their content and what is furniture around it.
 *
 * - a layout wrapper named for its sidebars (`layout-with-sidebar`, `two-sidebars`) that holds the
 *   page's `<main>` (or `role="main"`) is the page's frame, not a sidebar (prepare.ts);
 * - inside the article (`<main>`, `<article>`), a block named its header (`page__header`) is the
 *   article's own title and lead, as a `<header>` there is (prepare.ts);
 * - a block whose id is the slug of its own heading (`<section id="respond-to-review-comments">`)
 *   is named for its title: its id's words are not furniture words (prepare.ts).
 *
 * Elsewhere for these pages: the declared `<main>` over a selection of part of it, and hidden tab
 * panels kept (code examples in other languages), in main-content.ts.
 */
import { isElement, type DomNode } from './dom.js';

/** Whether `el` holds the page's declared content element (`<main>`, `role="main"`). */
export function holdsMain(el: DomNode): boolean {
  for (const c of el.children ?? []) {
    if (!isElement(c)) continue;
    if (c.name === 'main' || c.attribs?.role === 'main' || holdsMain(c)) return true;
  }
  return false;
}

/** Class/id names without the word `header` (`layout__header`, `page-header`): what else they name. */
export const withoutHeader = (names: string): string => names.replace(/(^|[\s_-])header(?=$|[\s_-])/g, '$1');

const slug = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');

function headingText(n: DomNode): string {
  let out = '';
  for (const c of n.children ?? []) out += c.type === 'text' ? (c.data ?? '') : isElement(c) && c.name !== 'a' ? headingText(c) : '';
  return out;
}

/**
 * Whether `el`'s id is the slug of its own heading (a section of a documentation generator,
 * `<section id="respond-to-review-comments"><h2>Respond to review comments`): the id names the
 * section's title, not what the block is, so its words (`comments`) are not furniture words. A
 * heading of three words or more (a two-word "Related posts" is a label of furniture).
 */
export function idNamesHeading(el: DomNode): boolean {
  const id = el.attribs?.id;
  if (!id || id.length < 10) return false;
  for (const c of el.children ?? []) {
    if (!isElement(c)) continue;
    if (!/^h[1-6]$/.test(c.name ?? '')) return false;
    const title = slug(headingText(c));
    return title.split('-').length >= 3 && title === slug(id);
  }
  return false;
}
