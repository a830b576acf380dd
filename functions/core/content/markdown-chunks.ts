/**
 * A large HTML fragment cut into pieces that convert to markdown one by one, their markdown joined.
 *
 * Why: node-html-markdown reads the end of the markdown it has written after every piece it appends
 * (trailing newlines) and hands every post-processed node the text written since it started. On a
 * string built by appending, each such read copies the whole text so far, so a conversion costs the
 * square of the page's length: 10,000 paragraphs took 2.0 s, a table of 10,000 rows 5.8 s and of
 * 20,000 rows 30 s. Converted in pieces of about {@link PIECE_CHARS} characters of HTML, each
 * conversion's text stays short and the whole is linear.
 *
 * Cuts fall between blocks: top-level nodes are grouped in document order, a run of inline nodes
 * (text, links, emphasis) cut only when it is longer than a piece, and then at a space or a line
 * break, its next piece written on the next line of the same paragraph; a large block container
 * (`div`, `section`, …) is cut between its children; a large table between its rows, each piece a
 * table with the first row again as its header (the header and its delimiter line are then dropped
 * from every piece but the first); a large list between its items, numbered on. Anything else (a
 * quote, a table with a caption) stays whole.
 */
import { load, type CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';

/** HTML characters of one piece (about): small enough for the converter's reads to stay cheap. */
export const PIECE_CHARS = 16_000;

/** Containers whose children are blocks that convert the same outside them. */
const TRANSPARENT = new Set(['div', 'section', 'article', 'main', 'header', 'footer', 'aside', 'center', 'body', 'html', 'figure', 'hgroup']);
/** Elements that start a block of their own (a cut next to them cannot split a paragraph). */
const BLOCKS = new Set([
  ...TRANSPARENT, 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'table', 'pre', 'blockquote', 'hr', 'form', 'fieldset', 'details',
  'figcaption', 'address', 'nav', 'dialog', 'menu',
]);

/**
 * One piece: HTML to convert; `rest` when its markdown continues the table, list or paragraph of the
 * piece before it (written on the next line; a table's repeated header and delimiter dropped first).
 */
export interface Piece {
  html: string;
  rest?: 'table' | 'list' | 'inline' | 'break';
}

const isElement = (n: AnyNode): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';
/** The text of a text or comment node ('' for any other). */
const dataOf = (n: AnyNode): string => ('data' in n ? n.data : '');
/** A text node of whitespace only. */
const blank = (n: AnyNode) => n.type === 'text' && !dataOf(n).trim();
/** Whether a run of inline text may be cut before `n`: a text that starts with a space, or a line break. */
const softBreak = (n: AnyNode) => (n.type === 'text' && /^\s/.test(dataOf(n))) || (isElement(n) && n.name === 'br');

/** Approximate serialized length of every node under `roots` (one pass, bottom-up). */
function sizes(roots: AnyNode[]): Map<AnyNode, number> {
  const out = new Map<AnyNode, number>();
  const size = (n: AnyNode): number => {
    let s: number;
    if (n.type === 'text' || n.type === 'comment') s = dataOf(n).length;
    else if (isElement(n)) {
      s = n.name.length * 2 + 5;
      for (const [k, v] of Object.entries(n.attribs)) s += k.length + v.length + 4;
      for (const c of n.children) s += size(c);
    } else s = 0;
    out.set(n, s);
    return s;
  };
  for (const r of roots) size(r);
  return out;
}

/** The rows of a table, through its `thead`/`tbody`/`tfoot`; undefined when it holds anything else that would be lost (a caption, a colgroup, a nested table's rows are inside cells and stay). */
function tableRows(table: Element): Element[] | undefined {
  const rows: Element[] = [];
  for (const c of table.children) {
    if (!isElement(c)) {
      if (blank(c)) continue;
      return undefined;
    }
    if (c.name === 'tr') rows.push(c);
    else if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot') {
      for (const r of c.children) {
        if (isElement(r) && r.name === 'tr') rows.push(r);
        else if (!blank(r) && (isElement(r) || r.type === 'text')) return undefined;
      }
    } else return undefined;
  }
  return rows.length > 1 ? rows : undefined;
}

/**
 * `html` in pieces of about {@link PIECE_CHARS} characters, cut between blocks (see the module
 * comment); one piece when it is no longer than twice that.
 */
export function markdownPieces(html: string): Piece[] {
  if (html.length <= PIECE_CHARS * 2) return [{ html }];
  // Parsed inside one wrapper: parse5 moves a fragment's top-level nodes one by one, each move a
  // search of the rest (40,000 paragraphs: 1.2 s); the wrapper's children are built in place.
  const $: CheerioAPI = load(`<div>${html}</div>`, null, false);
  const roots = $.root().children().first().contents().toArray();
  const size = sizes(roots);
  const out: Piece[] = [];
  let batch: AnyNode[] = [];
  let batchSize = 0;
  // Whether the batch ends on an inline node (the next inline node must join it).
  let inlineTail = false;
  // How the next piece goes on the paragraph the last one ended in (a long run of inline text cut
  // at a space, or at a line break that is then written between the two).
  let continues: 'inline' | 'break' | undefined;
  const flush = () => {
    if (batch.length) out.push({ html: batch.map((n) => $.html(n)).join(''), ...(continues ? { rest: continues } : {}) });
    batch = [];
    batchSize = 0;
    inlineTail = false;
    continues = undefined;
  };
  const add = (n: AnyNode) => {
    const block = isElement(n) && BLOCKS.has(n.name);
    const s = size.get(n) ?? 0;
    // A bare <span> (serialize.ts writes long inline runs in them) is its children, cut like any run.
    if (isElement(n) && n.name === 'span' && s > PIECE_CHARS / 4 && !Object.keys(n.attribs).length) {
      for (const c of n.children) add(c);
      return;
    }
    if (batchSize + s > PIECE_CHARS && batchSize > 0) {
      if (block || !inlineTail) flush();
      else if (softBreak(n)) {
        // A paragraph of inline text longer than a piece (an index of thousands of links): cut
        // where it breaks a line anyway, the next piece written on the next line of the same paragraph.
        flush();
        continues = isElement(n) ? 'break' : 'inline';
        if (continues === 'break') return;
      }
    }
    if (isElement(n) && s > PIECE_CHARS) {
      if (TRANSPARENT.has(n.name)) {
        // Its children, cut like the top level (the converter writes nothing for its own tag).
        flush();
        for (const c of n.children) add(c);
        flush();
        return;
      }
      const rows = n.name === 'table' ? tableRows(n) : undefined;
      const items = n.name === 'ul' || n.name === 'ol' ? listItems(n) : undefined;
      if (rows || items) {
        flush();
        const header = rows ? $.html(rows[0]) : '';
        const ordered = n.name === 'ol';
        let number = ordered ? Number.parseInt(n.attribs.start ?? '1', 10) || 1 : 1;
        let part: string[] = [];
        let partSize = 0;
        let first = true;
        const emit = () => {
          if (!part.length) return;
          if (rows) out.push({ html: `<table>${first ? '' : header}${part.join('')}</table>`, rest: first ? undefined : 'table' });
          else out.push({ html: `<${n.name}${ordered ? ` start="${number}"` : ''}>${part.join('')}</${n.name}>`, rest: first ? undefined : 'list' });
          if (ordered) number += part.length;
          first = false;
          part = [];
          partSize = 0;
        };
        for (const r of rows ?? items!) {
          const rs = size.get(r) ?? 0;
          if (partSize + rs > PIECE_CHARS && partSize > 0) emit();
          part.push($.html(r));
          partSize += rs;
        }
        emit();
        return;
      }
    }
    // A block right after a cut ends that paragraph: its piece starts a block of its own.
    if (block && !batch.length) continues = undefined;
    batch.push(n);
    batchSize += s;
    // Blank text between two inline nodes leaves the run as it was.
    if (block) inlineTail = false;
    else if (!blank(n)) inlineTail = true;
  };
  for (const r of roots) add(r);
  flush();
  return out;
}

/** The items of a list, when it holds nothing else but blank text. */
function listItems(list: Element): Element[] | undefined {
  const items: Element[] = [];
  for (const c of list.children) {
    if (isElement(c) && c.name === 'li') items.push(c);
    else if (!blank(c) && (isElement(c) || c.type === 'text')) return undefined;
  }
  return items.length > 1 ? items : undefined;
}

/** The markdown of a table piece after the first: its rows without the repeated header row and delimiter. */
export function tableRestRows(md: string): string {
  const lines = md.split('\n');
  const delimiter = lines.findIndex((l) => /^\|(?:\s*:?-{3,}:?\s*\|)+\s*$/.test(l));
  return delimiter < 0 ? md : lines.slice(delimiter + 1).join('\n');
}
