/**
 * Documentation pages: what frames their content (prepare.ts asks; the furniture inside it is
 * doc-furniture.ts).
 *
 * - inside the article (`<main>`, `<article>`), a block named a header (`page__header`) that is or
 *   holds a heading is the article's own title and lead, as a `<header>` there is (prepare.ts);
 * - a block whose id is the slug of its own heading (`<section id="respond-to-review-comments">`)
 *   is named for its title: its id's words are not furniture words (prepare.ts).
 *
 * Elsewhere for these pages: the declared `<main>` over a selection of part of it, and hidden tab
 * panels kept (code examples in other languages), in main-content.ts.
 */
import { isCommentsHeading, isSectionHeading } from './boilerplate-text.js';
import { HEADING_TAGS, documentRoot, holdsElement, isElement, type DomNode } from './dom.js';

/**
 * Whether `el`, inside the article, is named a header (`page__header`, `header-anchor`) and is a
 * heading or holds one: the article's own title and lead, or a section's heading, as a `<header>`
 * there is (a post's header of author and date, with no heading, is not).
 */
export function articleHeader(el: DomNode, names: string, chrome: (names: string) => boolean): boolean {
  const rest = names.replace(/(^|[\s_-])header(?=$|[\s_-])/g, '$1');
  return rest !== names && !chrome(rest) && (HEADING_TAGS.has(el.name ?? '') || holdsElement(el, HEADING_TAGS));
}

const slug = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');

function headingText(n: DomNode): string {
  let out = '';
  for (const c of n.children ?? []) out += c.type === 'text' ? (c.data ?? '') : isElement(c) && c.name !== 'a' ? headingText(c) : '';
  return out;
}

/**
 * Whether `el`'s id is where one of the page's tabs leads (`<a role="tab" href="#nav-description">`,
 * a tab list's link, Bootstrap's `data-toggle="tab"`): the id names a section the tabs switch
 * to, not its role ("nav-description" is no navigation).
 */
export function tabTarget(el: DomNode): boolean {
  const id = el.attribs?.id;
  return !!id && tabTargets(documentRoot(el)).has(id);
}

const TAB_TARGETS = new WeakMap<DomNode, Set<string>>();
/** Links read at most per document when gathering tab targets. */
const MAX_TAB_LINKS = 5000;

function tabTargets(root: DomNode): Set<string> {
  let set = TAB_TARGETS.get(root);
  if (set) return set;
  set = new Set();
  let links = 0;
  const walk = (n: DomNode, inTablist: boolean): void => {
    for (const c of n.children ?? []) {
      if (!isElement(c) || links > MAX_TAB_LINKS) continue;
      const a = c.attribs ?? {};
      const tablist = inTablist || a.role === 'tablist';
      if (c.name === 'a') {
        links++;
        const href = a.href ?? '';
        const toggle = (a['data-toggle'] ?? a['data-bs-toggle'] ?? '').toLowerCase();
        if (href.startsWith('#') && href.length > 1 && (tablist || a.role === 'tab' || toggle === 'tab' || toggle === 'pill')) set!.add(href.slice(1));
      }
      walk(c, tablist);
    }
  };
  walk(root, false);
  TAB_TARGETS.set(root, set);
  return set;
}

/**
 * Whether `el`'s id is the slug of its own heading (a section of a documentation generator,
 * `<section id="respond-to-review-comments"><h2>Respond to review comments`): the id names the
 * section's title, not what the block is, so its words (`comments`, `header`) are not furniture
 * words. A heading of two words or more that is not itself the label of furniture ("Related
 * posts", "Leave a reply": boilerplate-text.ts).
 */
export function idNamesHeading(el: DomNode): boolean {
  const id = el.attribs?.id;
  if (!id || id.length < 10) return false;
  for (const c of el.children ?? []) {
    if (!isElement(c)) continue;
    if (!/^h[1-6]$/.test(c.name ?? '')) return false;
    const text = headingText(c);
    const title = slug(text);
    return title.includes('-') && title === slug(id) && !isSectionHeading(text) && !isCommentsHeading(text);
  }
  return false;
}
