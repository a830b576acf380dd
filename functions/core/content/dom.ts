/**
 * The slice of the cheerio/domhandler tree the content phases read. The pipeline parses each page
 * once; the phases walk that tree without changing it (what they remove is a set of nodes the
 * serializer skips), so `text`, `links`, `extract` and `html` still see the whole page.
 */
export interface DomNode {
  type: string; // 'tag' | 'script' | 'style' | 'text' | 'comment' | 'root' | 'directive' | 'cdata'
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
  parent?: DomNode | null;
}

/** Elements (domhandler types `<script>` and `<style>` apart from other tags). */
export const isElement = (n: DomNode): boolean => n.type === 'tag' || n.type === 'script' || n.type === 'style';

/** Block-level elements: text inside them is a paragraph of its own. */
export const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html',
  'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr',
  'ul', 'caption', 'center', 'menu',
]);

export const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** `class` and `id` of an element, lowercased, one string (what the class/id patterns test). */
export function classAndId(el: DomNode): string {
  const a = el.attribs;
  if (!a) return '';
  const c = a.class ?? '';
  const i = a.id ?? '';
  if (!c && !i) return '';
  const names = `${c} ${i}`.toLowerCase();
  // Read on every rule's every element: the doc-comment names only where a comment is named at all.
  return names.includes('comment') ? names.replace(DOC_COMMENT, ' ') : names;
}

/**
 * A documentation generator's name for an API's doc comment (TypeDoc's `tsd-comment`, `doc-comment`,
 * `jsdoc-comment`, `api-comment`; one comment, written with a dash: PostgreSQL's `docComments` is
 * its readers' comments): the reference's own text. Read out of a block's names, so no rule takes
 * it for a comment section.
 */
const DOC_COMMENT = /(?:^|\s)(?:tsd|doc|jsdoc|api)[-_]comment(?=\s|$)/g;

/** The root of the document that contains `node` (a per-document cache's key). */
export function documentRoot(node: DomNode): DomNode {
  let root = node;
  while (root.parent) root = root.parent;
  return root;
}

/** Readable length of a text node: its characters without the surrounding whitespace. */
export function textLength(data: string): number {
  let start = 0;
  let end = data.length;
  while (start < end && data.charCodeAt(start) <= 32) start++;
  while (end > start && data.charCodeAt(end - 1) <= 32) end--;
  return end - start;
}

// Commas in Latin, CJK and Arabic scripts: a sentence with commas is prose, not a menu.
const COMMAS = /[,，、،]/g;
export function commaCount(data: string): number {
  return data.match(COMMAS)?.length ?? 0;
}

/** Whitespace runs as one space, trimmed. */
export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * `text` with the text node `data` appended, white space collapsed to one space between words and
 * none before the first: a short text read up to a length is not used up by the page source's
 * indentation.
 */
export function appendCollapsed(text: string, data: string): string {
  const part = data.replace(/\s+/g, ' ');
  return (text === '' || text.endsWith(' ')) && part.startsWith(' ') ? text + part.slice(1) : text + part;
}

/**
 * The start of `el`'s text: its text nodes in order, white space collapsed (appendCollapsed), read
 * until more than `max` characters are read; elements named in `skip` are not read. A short text
 * (a button's label, a card control, a loading line) is told by its words, not the source's
 * indentation. Not trimmed at the end.
 */
export function leadingText(el: DomNode, max: number, skip?: ReadonlySet<string>): string {
  let out = '';
  const walk = (n: DomNode): boolean => {
    for (const c of n.children ?? []) {
      if (out.length > max) return true;
      if (c.type === 'text') out = appendCollapsed(out, c.data ?? '');
      else if (isElement(c) && !skip?.has(c.name ?? '') && walk(c)) return true;
    }
    return false;
  };
  walk(el);
  return out;
}

/** Whether `el` holds an element named one of `names`, `depth` levels down at most (any depth by default). */
export function holdsElement(el: DomNode, names: ReadonlySet<string>, depth = Infinity): boolean {
  for (const c of el.children ?? []) {
    if (!isElement(c)) continue;
    if (names.has(c.name ?? '') || (depth > 1 && holdsElement(c, names, depth - 1))) return true;
  }
  return false;
}

/** Each child's place among its parent's children, kept per children array (checked on every read, rebuilt when stale). */
const places = new WeakMap<DomNode[], Map<DomNode, number>>();

/**
 * The place of `el` among its parent's children (-1 without a parent): indexed once per parent, so
 * asking it of every child of a block of 20,000 children is not a search of them each time.
 */
export function siblingIndex(el: DomNode): number {
  const siblings = el.parent?.children;
  if (!siblings) return -1;
  let m = places.get(siblings);
  let i = m?.get(el);
  if (i === undefined || siblings[i] !== el) {
    m = new Map(siblings.map((n, k) => [n, k]));
    places.set(siblings, m);
    i = m.get(el) ?? -1;
  }
  return i;
}

/**
 * An image's address as written in `src`: a theme that writes a srcset list there ("a.jpg 1000w,
 * b.jpg 1250w", which a browser requests whole, as one broken address) gives its first image.
 */
export function imageSource(src: string): string {
  return SRCSET_LIST.test(src) ? src.trim().split(/\s+/)[0]! : src;
}

// A candidate's width or density descriptor followed by the next candidate.
const SRCSET_LIST = /^\s*[^\s,]+\s+\d+(?:\.\d+)?[wx]\s*,/;
