/**
 * HTML of the selected content for the markdown converter: the selected nodes in document order,
 * without the subtrees earlier phases left out, links and images absolute against the page's base
 * URL (link fragments kept), lazy images' real source (`data-src`) when `src` is a placeholder,
 * and only the attributes markdown can use (so the converter parses less; a code block's language
 * as `data-lang` on its <pre>, no classes).
 */
import { codeLanguageOf } from './code-language.js';
import { codeOfGutterTable, lineNumberGutters } from './code-gutter.js';
import { BLOCK_TAGS, HEADING_TAGS, imageSource, isElement, type DomNode } from './dom.js';
import { postFurniture, previewsAPost, quotesAPost } from './thread-posts.js';
import { admonitionPart } from './admonition.js';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const RAW_TEXT = new Set(['script', 'style']);
// Classes are not written (every attribute costs the converter time, classes several times the
// conversion CPU on class-heavy pages): a <pre> carries the language its markup names, on it, its
// <code> or up to two wrappers (code-language.ts), as `data-lang`.
const KEPT_ATTRS = new Set(['href', 'src', 'alt', 'title', 'colspan', 'rowspan', 'start', 'data-src']);

/**
 * Inline children written into one <span> at most: the markdown converter's parser looks for every
 * child it adds among the element's others (a paragraph of 20,000 links took 6.4 s), so a long run
 * of them is written in wrappers that say nothing (a <span> adds no markdown).
 */
const MAX_INLINE_RUN = 500;
const NO_WRAPPER = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'ul', 'ol', 'dl', 'select', 'colgroup']);

const attrOf = (n: DomNode | null | undefined) => (name: string) => n?.attribs?.[name];

/**
 * The cells of a table drawn as a stack of boxes, else undefined (a table with a caption is
 * data): one row of one cell (a callout box: "| **Best Price Guarantee** Find a lower price… |" over a lone `| --- |`),
 * or one column of rows whose cells hold blocks of their own (paragraphs, lists, tables: a page laid
 * out in a table, as Hacker News is: its navigation in the first row, its list of stories as a
 * table inside the next; GFM cannot nest a table, so the whole page was one cell of text). A column
 * of plain values (a header "Name" over "Ada") stays a table.
 */
function stackedCells(table: DomNode): DomNode[] | undefined {
  const cells: DomNode[] = [];
  const visit = (n: DomNode): boolean => {
    for (const c of n.children ?? []) {
      if (c.type === 'text') {
        if ((c.data ?? '').trim()) return false;
        continue;
      }
      if (!isElement(c)) continue;
      const name = c.name ?? '';
      if (name === 'thead' || name === 'tbody' || name === 'tfoot' || name === 'tr') {
        if (!visit(c)) return false;
      } else if (name === 'td' || name === 'th') {
        if (n.name !== 'tr' || (cells.length && cells[cells.length - 1]!.parent === n)) return false;
        cells.push(c);
      } else if (name !== 'colgroup' && name !== 'col') return false;
    }
    return true;
  };
  if (!visit(table) || !cells.length) return undefined;
  if (cells.length === 1) return cells;
  let looked = 0;
  const holdsBlock = (n: DomNode): boolean => {
    for (const c of n.children ?? []) {
      if (!isElement(c) || ++looked > MAX_BLOCK_LOOK) continue;
      if (STACKED_BLOCKS.has(c.name ?? '') || holdsBlock(c)) return true;
    }
    return false;
  };
  return cells.some((c) => holdsBlock(c)) ? cells : undefined;
}

/** Blocks that make a one-column table's cell a box of its own (see stackedCells). */
const STACKED_BLOCKS = new Set(['p', 'div', 'ul', 'ol', 'dl', 'table', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'form']);
/** Elements of a table looked at for a block inside its cells (a table's check stays cheap). */
const MAX_BLOCK_LOOK = 400;

/** The language of the code block `pre` is, or ''. */
function preLanguage(pre: DomNode): string {
  const code = pre.children?.find((c) => isElement(c) && c.name === 'code');
  const wrapper = pre.parent && isElement(pre.parent) ? pre.parent : null;
  const outer = wrapper?.parent && isElement(wrapper.parent) ? wrapper.parent : null;
  return codeLanguageOf([
    { attr: attrOf(code), bare: true },
    { attr: attrOf(pre), bare: true },
    { attr: attrOf(wrapper), bare: false },
    { attr: attrOf(outer), bare: false },
  ]);
}

const escapeText = (s: string) => s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
const escapeAttr = (s: string) => s.replace(/[&"]/g, (c) => (c === '&' ? '&amp;' : '&quot;'));

function absolute(raw: string, base: string): string {
  const v = raw.trim();
  if (!v || /^(?:data|mailto|tel|javascript):/i.test(v)) return v;
  try {
    return new URL(v, base).href;
  } catch {
    return v;
  }
}

export interface Serialized {
  html: string;
  /** Characters of text written (whitespace at the ends of text nodes not counted). */
  textLength: number;
}

/** Which nodes to leave out (with their subtrees). */
export type Skip = (n: DomNode) => boolean;

/** A block element written: its pieces of output and of text, and whether it is, is in or holds a quote or code. */
interface Span {
  o0: number;
  o1: number;
  t0: number;
  t1: number;
  kept: boolean;
  /** One block alone (a paragraph): a repeat only right after its earlier copy. */
  single: boolean;
}

// A section (a block of two blocks or more) repeats an earlier one when their texts (whitespace
// folded, case ignored) match and hold at least this many characters: the same description written
// twice for two screen sizes, a whole story twice, a features grid repeated for a carousel.
// Shorter ones ("Reply", a price) repeat on purpose, and so do single paragraphs (the same terms
// under two offers, an event's blurb on each of its dates), unless a long one follows its own copy
// with nothing between (one per screen size).
const MIN_REPEAT_CHARS = 80;
const MIN_REPEAT_PARAGRAPH = 150;

export interface SerializeOptions {
  /** Leave out a block whose text repeats an earlier block's (not quotes, not code). */
  dropRepeats?: boolean;
  /** A forum thread's posts: leave out their quotes of other posts and their furniture (thread-posts.ts). */
  threadPosts?: boolean;
}

const WORD_END = /[\p{L}\p{N}]$/u;
const WORDS_END = /\p{L}{2}$/u;
// Styled inline elements whose words are apart from a word of text right before them.
const TEXT_THEN_WORD = new Set(['span', 'strong', 'b', 'em', 'i', 'small', 'font', 'mark', 'label']);
// Two letters or digits, a number of one digit ("8.2 in", "1 sold") or an initial ("J. B.
// Mackinnon"): not a word's last letter split off ("includin" + "g CRM", a highlighter's span).
const WORD_START = /^(?:[\p{L}\p{N}]{2}|\p{N}[^\p{L}\p{N}\p{M}'’-]|\p{Lu}\.)/u;

/** Whether the text of `el` (up to a block) opens with a word: two letters or digits, a one-digit number or an initial. */
function opensWithWord(el: DomNode): boolean {
  let head = '';
  const walk = (n: DomNode): boolean => {
    for (const c of n.children ?? []) {
      if (c.type === 'text') head += c.data ?? '';
      else if (isElement(c) && !RAW_TEXT.has(c.name ?? '')) {
        if (BLOCK_TAGS.has(c.name ?? '')) return true;
        if (walk(c)) return true;
      }
      if (head.length >= 2) return true;
    }
    return false;
  };
  walk(el);
  return WORD_START.test(head);
}

/** Serialize `nodes` (and their subtrees) leaving out every node `skip` names. */
export function serializeContent(nodes: DomNode[], skip: Skip, base: string, options: SerializeOptions = {}): Serialized {
  const out: string[] = [];
  const texts: string[] = [];
  const spans: Span[] = [];
  let textLength = 0;
  let kept = 0;
  let code = 0;
  let blocks = 0;
  // Inside <pre> text is verbatim; outside, text right after an inline element that starts on a
  // new line keeps a space there (the converter drops a leading line break: `<a>x</a>\ny` -> "xy").
  let pre = 0;
  let afterInline = false;
  // Whether the last thing written was a text node (see TEXT_THEN_WORD).
  let afterText = false;
  let inlineLength = 0;
  const gutters = new Set<DomNode>();
  // The cells of a table drawn as a stack of boxes (stackedCells), each written as a block.
  const boxCells = new Set<DomNode>();
  // Where the outermost <pre>'s text starts in `texts`; a line break there unless its text ends one.
  let preStart = 0;
  const breakLine = () => {
    if (texts.length === preStart || (texts[texts.length - 1] ?? '').endsWith('\n')) return;
    out.push('\n');
    texts.push('\n');
  };
  // An element's children; a run of more than MAX_INLINE_RUN inline ones in <span>s of that many
  // (not in code, a table's rows or a list's items, where a <span> cannot stand).
  const writeChildren = (n: DomNode, name: string) => {
    const kids = n.children ?? [];
    if (kids.length <= MAX_INLINE_RUN || pre > 0 || NO_WRAPPER.has(name)) {
      for (const c of kids) if (!skip(c)) write(c);
      return;
    }
    let run = 0;
    for (const c of kids) {
      if (skip(c)) continue;
      if (c.type === 'text' || (isElement(c) && !BLOCK_TAGS.has(c.name ?? ''))) {
        if (run === 0) out.push('<span>');
        write(c);
        if (++run === MAX_INLINE_RUN) {
          out.push('</span>');
          run = 0;
        }
        continue;
      }
      if (run > 0) out.push('</span>');
      run = 0;
      write(c);
    }
    if (run > 0) out.push('</span>');
  };
  const write = (n: DomNode) => {
    if (n.type === 'text') {
      let data = n.data ?? '';
      if (afterInline && pre === 0 && data.charCodeAt(0) === 10) data = ` ${data}`;
      afterInline = false;
      afterText = true;
      out.push(escapeText(data));
      texts.push(data);
      textLength += data.trim().length;
      return;
    }
    if (!isElement(n)) {
      if (n.type === 'root') for (const c of n.children ?? []) if (!skip(c)) write(c);
      return;
    }
    // A disclosure's trigger kept by prepare (disclosure.ts) is read as its label: a line of its
    // own, or the text of the heading it sits in (the converter drops buttons).
    const name = n.name === 'button' ? (n.parent && HEADING_TAGS.has(n.parent.name ?? '') ? 'span' : 'div') : boxCells.has(n) ? 'div' : (n.name ?? 'div');
    if (RAW_TEXT.has(name)) return;
    // A code block's line-number gutter is not its code (code-gutter.ts).
    if (name === 'pre' && pre === 0) for (const g of lineNumberGutters(n)) gutters.add(g);
    if (name === 'table' && pre === 0) {
      const cells = stackedCells(n);
      if (cells) {
        // A row or cell the cleaner left out stays out (the table's own children are asked, as
        // writeChildren asks them).
        const left = (c: DomNode) => {
          for (let p: DomNode | null | undefined = c; p && p !== n; p = p.parent) if (skip(p)) return true;
          return false;
        };
        for (const cell of cells) {
          if (left(cell)) continue;
          boxCells.add(cell);
          write(cell);
        }
        return;
      }
      const code = codeOfGutterTable(n);
      if (code) return write(code);
    }
    if (pre > 0 && gutters.has(n)) return;
    // Inside a code block only its text counts (a fenced block has no markup): a highlighter's
    // token spans are written as their text. The converter's parser costs the square of an
    // element's children (each one it adds is looked for among the others first): a 4,000-line
    // file in 40,000 spans took 35 s, as text 0.1 s.
    if (pre > 0 && name !== 'code') {
      if (name === 'br') {
        out.push('\n');
        texts.push('\n');
      } else if (BLOCK_TAGS.has(name)) {
        // A block inside <pre> is a line of its own (a highlighter's line wrappers), as shown.
        breakLine();
        writeChildren(n, name);
        breakLine();
      } else writeChildren(n, name);
      return;
    }
    if (options.threadPosts && (quotesAPost(n) || previewsAPost(n) || postFurniture(n))) return;
    // Two inline elements side by side with words at their meeting point and no space between
    // (`<span>Publisher</span><span>Houghton</span>`, a label and its value that the page's style
    // lays out apart): a space, or the two words read as one. A word styled in parts has parts of
    // a letter or two, and a price's parts meet at a sign or a point.
    // A word of text right before a styled element that opens with one ("Vous souhaitez<span>offrir
    // ?</span>", a line the page's style sets apart): apart too. Of the development pages' 23 such
    // meetings, the reference texts read every one apart. Letters only before it (not "21<span>st"),
    // and not a footnote or an ordinal (`<sup>`), a link or code.
    const textThenWord = afterText && TEXT_THEN_WORD.has(name) && WORDS_END.test(texts[texts.length - 1] ?? '');
    if (pre === 0 && (textThenWord || (afterInline && inlineLength >= 2 && !BLOCK_TAGS.has(name) && WORD_END.test(texts[texts.length - 1] ?? ''))) && opensWithWord(n)) {
      out.push(' ');
      texts.push(' ');
    }
    afterInline = false;
    afterText = false;
    const o0 = out.length;
    const t0 = texts.length;
    const len0 = textLength;
    const blocks0 = blocks;
    const a = n.attribs ?? {};
    // A documentation page's admonition (a note, a warning, a tip) is a quote block, its title in bold.
    const callout = pre === 0 && a.class ? admonitionPart(n, a.class) : undefined;
    const tag = callout === 'box' ? 'blockquote' : callout === 'title' ? 'p' : name;
    out.push('<', tag);
    for (const key in a) {
      if (!KEPT_ATTRS.has(key)) continue;
      let v = a[key];
      if (key === 'href' && name === 'a') v = absolute(v, base);
      else if (key === 'src') {
        if ((!v.trim() || v.startsWith('data:')) && a['data-src']) v = a['data-src'];
        v = absolute(imageSource(v), base);
      }
      out.push(' ', key, '="', escapeAttr(v), '"');
    }
    if (name === 'pre') {
      const lang = preLanguage(n);
      if (lang) out.push(' data-lang="', escapeAttr(lang), '"');
    }
    out.push(callout === 'title' ? '><strong>' : '>');
    if (VOID.has(name)) return;
    if (name === 'pre' && pre++ === 0) preStart = texts.length;
    const quote = tag === 'blockquote' || name === 'pre';
    if (quote) kept++;
    const code0 = code;
    if (name === 'pre') code++;
    writeChildren(n, tag);
    if (quote) kept--;
    if (name === 'pre') pre--;
    out.push(callout === 'title' ? '</strong></' : '</', tag, '>');
    afterInline = !BLOCK_TAGS.has(name);
    afterText = false;
    inlineLength = textLength - len0;
    if (!afterInline && textLength > len0) {
      // A section of two blocks or more (a description's paragraphs, a card's title and text).
      if (options.dropRepeats && textLength - len0 >= MIN_REPEAT_CHARS && (blocks - blocks0 >= 2 || textLength - len0 >= MIN_REPEAT_PARAGRAPH)) {
        spans.push({ o0, o1: out.length, t0, t1: texts.length, kept: quote || kept > 0 || code > code0, single: blocks - blocks0 < 2 });
      } else if (options.dropRepeats && HEADING_TAGS.has(name)) {
        // A heading right after its own copy (a card's title written for two layouts): once.
        spans.push({ o0, o1: out.length, t0, t1: texts.length, kept: false, single: true });
      }
      blocks++;
    }
  };
  for (const n of nodes) if (!skip(n)) write(n);
  if (!spans.length) return { html: out.join(''), textLength };
  return withoutRepeats(out, texts, spans, textLength);
}

/**
 * The output without blocks that repeat an earlier block's text, outermost first: a repeated
 * section goes whole, and a block is never a repeat of a block that holds it (a wrapper and its
 * only paragraph). Quotes and code blocks, and blocks that hold code, stay (a forum post quotes
 * an earlier one; a documentation page's tabs repeat their prose beside each language's code).
 * `textLength` stays what was written before: the extraction's choices do not change with it.
 */
function withoutRepeats(out: string[], texts: string[], spans: Span[], textLength: number): Serialized {
  spans.sort((a, b) => a.o0 - b.o0 || b.o1 - a.o1);
  const seen = new Map<string, Span>();
  const lastCopy = new Map<string, Span>();
  const removed: Span[] = [];
  let removedTo = -1;
  for (const s of spans) {
    if (s.o0 < removedTo) continue;
    const key = texts.slice(s.t0, s.t1).join('').replace(/\s+/g, ' ').trim().toLowerCase();
    const first = seen.get(key);
    if (!first) {
      seen.set(key, s);
      continue;
    }
    if (s.kept || (first.o0 <= s.o0 && s.o1 <= first.o1)) continue;
    if (s.single) {
      const last = lastCopy.get(key) ?? first;
      lastCopy.set(key, s);
      if (texts.slice(last.t1, s.t0).join('').trim()) continue;
    }
    removed.push(s);
    removedTo = s.o1;
  }
  if (!removed.length) return { html: out.join(''), textLength };
  const parts: string[] = [];
  let at = 0;
  for (const r of removed) {
    parts.push(out.slice(at, r.o0).join(''));
    at = r.o1;
  }
  parts.push(out.slice(at).join(''));
  return { html: parts.join(''), textLength };
}
