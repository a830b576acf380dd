/**
 * A documentation page's admonitions (a note, a warning, a tip), told by their markup: the box
 * (written as a quote block by serialize.ts) and its title (written in bold).
 */
import { HEADING_TAGS, type DomNode } from './dom.js';

// A documentation page's admonition box: Sphinx's and MkDocs' `admonition`, Docusaurus's
// `theme-admonition`, GitHub's `markdown-alert`, MDN's `notecard`. Not a `callout`: landing and
// product pages name their feature blocks so.
const ADMONITION_BOX = /^(?:admonition|theme-admonition|markdown-alert|notecard)$/;
// A box of a kind: VuePress's `custom-block tip`, a Bootstrap or Infima alert (`alert alert-info`,
// `alert alert--success`). An admonition when it is one (short, no heading): a CMS names a text
// field `custom-block`, and a page may set a whole list or a section in an alert.
const KIND_BOX = /^(?:custom-block|alert)$/;
const BOX_KIND = /^(?:alert-{1,2})?(?:info|note|tip|warning|danger|caution|important|success|primary|secondary)$/;
// Its title: `admonition-title`, `markdown-alert-title`, `custom-block-title`, `callout-title`,
// `notecard-title`, Docusaurus's `admonition-heading` and `admonitionHeading_…`.
const ADMONITION_TITLE = /^(?:admonition-title|admonition-heading|markdown-alert-title|custom-block-title|callout-title|notecard-title|admonitionHeading_\w+)$/;
// The longest box of a kind read as an admonition, and the most nodes looked at to tell.
const MAX_ALERT_CHARS = 1000;
const MAX_ALERT_NODES = 300;

/**
 * Whether `el`'s class list names an admonition's box or its title (read token by token: no
 * backtracking over a long list).
 */
export function admonitionPart(el: DomNode, cls: string): 'box' | 'title' | undefined {
  let box = false;
  let kind = false;
  for (const token of cls.split(/\s+/)) {
    if (ADMONITION_TITLE.test(token)) return 'title';
    if (ADMONITION_BOX.test(token)) return 'box';
    if (KIND_BOX.test(token)) box = true;
    else if (BOX_KIND.test(token)) kind = true;
  }
  return box && kind && shortBox(el) ? 'box' : undefined;
}

/** Whether `el` holds no heading and under MAX_ALERT_CHARS of text (a bounded walk). */
function shortBox(el: DomNode): boolean {
  let chars = 0;
  let nodes = 0;
  const stack = [...(el.children ?? [])];
  while (stack.length) {
    const n = stack.pop()!;
    if (++nodes > MAX_ALERT_NODES) return false;
    if (n.type === 'text') {
      chars += (n.data ?? '').trim().length;
      if (chars > MAX_ALERT_CHARS) return false;
      continue;
    }
    if (HEADING_TAGS.has(n.name ?? '')) return false;
    if (n.children) stack.push(...n.children);
  }
  return true;
}
