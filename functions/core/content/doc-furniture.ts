/**
 * Documentation pages: what frames their content and what is furniture around it.
 *
 * - a layout wrapper named for its sidebars (`layout-with-sidebar`, `two-sidebars`) that holds the
 *   page's `<main>` (or `role="main"`) is the page's frame, not a sidebar (prepare.ts);
 * - inside the article (`<main>`, `<article>`), a block named its header (`page__header`) is the
 *   article's own title and lead, as a `<header>` there is (prepare.ts).
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
