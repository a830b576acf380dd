import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';

/** Whitespace collapsed and trimmed. */
export const squash = (s: string): string => s.replace(/[\s\u00a0\u202f]+/g, ' ').trim();

export const isTag = (n: AnyNode | null | undefined): n is Element => Boolean(n && (n.type === 'tag' || n.type === 'script' || n.type === 'style'));

/** An element's class and id, lowercased. */
export const classId = (el: Element): string => `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`.toLowerCase();

/** Regions whose prices and words are not the page's own product: related items, the cart, navigation, reviews. */
const OTHER_REGION = /(^|[\s_-])(related|recommend\w*|similar|upsell|up-sell|cross-?sell|also-?(?:bought|viewed|like)|recently-?viewed|recent|carousel|you-may|others?-?bought|mini-?cart|cart-?drawer|basket-?preview|newsletter|reviews?|comments?|bundle|accessor(?:y|ies)|complete-the-look|sponsored|ads?)([\s_-]|$)/;
const OTHER_TAGS = new Set(['nav', 'footer', 'aside', 'noscript', 'script', 'style', 'template', 'select', 'option']);

/** Is `el` inside navigation, a footer, an aside or a section about other products? */
export function inOtherRegion(el: Element, stopAt?: Element): boolean {
  for (let n: AnyNode | null = el; n && isTag(n); n = n.parent) {
    if (n === stopAt) return false;
    if (OTHER_TAGS.has(n.name)) return true;
    if (n.name === 'header' && !insideMain(n)) return true;
    if (OTHER_REGION.test(classId(n)) && n.name !== 'body' && n.name !== 'html') return true;
    const label = (n.attribs['aria-label'] ?? '').toLowerCase();
    if (label && /related|recommend|similar|cart/.test(label)) return true;
  }
  return false;
}

function insideMain(el: Element): boolean {
  for (let n: AnyNode | null = el.parent; n && isTag(n); n = n.parent) if (n.name === 'main' || n.name === 'article' || n.attribs.role === 'main') return true;
  return false;
}

/** Struck-out / former price markers on the element or its close ancestors. */
const STRUCK_CLASS = /(^|[\s_-])(old|was|regular|strike\w*|compare\w*|list-?price|listprice|rrp|uvp|msrp|before|original|crossed|previous|price-?old|old-?price|price-?was|was-?price)([\s_-]|$)/;

/** Is `el` a struck-out or former price (del/s/strike, a "was"/"old"/"compare" class, line-through)? */
export function isStruck(el: Element, stopAt?: Element): boolean {
  let depth = 0;
  for (let n: AnyNode | null = el; n && isTag(n) && depth < 4; n = n.parent, depth++) {
    if (n === stopAt) break;
    if (n.name === 'del' || n.name === 's' || n.name === 'strike') return true;
    if (STRUCK_CLASS.test(classId(n))) return true;
    if (/line-through/.test(n.attribs.style ?? '')) return true;
  }
  return false;
}

/** Is `el` inside a table or definition list (a specification, not the buy box)? */
export function inSpecTable(el: Element, stopAt?: Element): boolean {
  for (let n: AnyNode | null = el; n && isTag(n); n = n.parent) {
    if (n === stopAt) return false;
    if (n.name === 'table' || n.name === 'dl') return true;
  }
  return false;
}

/** A short CSS path of an element (tag, id or first class, nth-of-type), for provenance. */
export function cssPath($: CheerioAPI, el: Element): string {
  const parts: string[] = [];
  for (let n: AnyNode | null = el; n && isTag(n) && parts.length < 6; n = n.parent) {
    if (n.attribs.id && /^[A-Za-z][\w-]*$/.test(n.attribs.id)) {
      parts.unshift(`${n.name}#${n.attribs.id}`);
      break;
    }
    const cls = (n.attribs.class ?? '').trim().split(/\s+/)[0];
    const same = n.parent && isTag(n.parent) ? n.parent.children.filter((c) => isTag(c) && c.name === n!.name) : [];
    const nth = same.length > 1 ? `:nth-of-type(${same.indexOf(n) + 1})` : '';
    parts.unshift(`${n.name}${cls && /^[A-Za-z_-][\w-]*$/.test(cls) ? `.${cls}` : ''}${nth}`);
    if (n.name === 'body' || n.name === 'main') break;
  }
  void $;
  return parts.join(' > ');
}

/** Depth of an element in the tree. */
export const depthOf = (el: AnyNode): number => {
  let d = 0;
  for (let n = el.parent; n; n = n.parent) d++;
  return d;
};

/** Lowest common ancestor of two elements. */
export function commonAncestor(a: Element, b: Element): Element | null {
  const seen = new Set<AnyNode>();
  for (let n: AnyNode | null = a; n; n = n.parent) seen.add(n);
  for (let n: AnyNode | null = b; n; n = n.parent) if (seen.has(n) && isTag(n)) return n;
  return null;
}

/** Elements below `root` (root included) in document order, at most `max`. */
export function elementsIn(root: Element, max = 5_000): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length && out.length < max) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return out;
}

/** Text of an element, squashed, without script/style content. */
export function textOf(el: Element, max = 2_000): string {
  let s = '';
  const walk = (n: AnyNode) => {
    if (s.length > max) return;
    if (n.type === 'text') s += (n as unknown as { data: string }).data;
    else if (isTag(n) && n.name !== 'script' && n.name !== 'style') {
      if (n.name === 'br') s += ' ';
      for (const c of n.children) walk(c);
      if (/^(p|div|li|td|th|dt|dd|h\d|tr)$/.test(n.name)) s += ' ';
    }
  };
  walk(el);
  return squash(s);
}
