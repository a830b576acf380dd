/**
 * Line-number gutters of code blocks: numbers a highlighter writes beside each line, which a
 * reader sees but never copies (`user-select: none`, or a separate column). In the markdown they
 * would become part of the code ("1composer require twilio/sdk"), so they are left out:
 *
 * - inside a `<pre>`, an element named as a line-number gutter (`linenos`, `line-numbers`,
 *   `lineno`, `line-num`, `hljs-ln-numbers`, Docusaurus' `codeLineNumber_…`, `gutter`);
 * - inside a `<pre>`, the numbers a page writes as the first of a line's two parts (the number,
 *   then an element with the line's code), when they count up one by one (1, 2, 3…) over two
 *   lines or more: a line's own code never does that;
 * - a table of one row whose one cell holds a `<pre>` of nothing but such numbers, one a line, and
 *   the next cell the code (Pygments', Rouge's and Hugo's table layout): the code's `<pre>` alone
 *   (a single number too, beside a single line of code).
 */
import { classAndId, isElement, type DomNode } from './dom.js';

const GUTTER_NAME = /(?:^|[\s_-])(?:line-?numbers?(?:-rows)?|linenos?|lineno|linenodiv|line-num|hljs-ln-numbers?|hljs-ln-n|linenumber|codelinenumber|gutter)(?=$|[\s_-])/;
const NUMBER = /^\s*\d{1,5}\s*$/;
// Elements that carry no text a reader sees (an inline <style> of CSS-in-JS beside the number).
const NO_TEXT = new Set(['style', 'script', 'template']);

const textOf = (n: DomNode): string => {
  if (n.type === 'text') return n.data ?? '';
  if (!isElement(n) || NO_TEXT.has(n.name ?? '')) return '';
  let s = '';
  for (const c of n.children ?? []) s += textOf(c);
  return s;
};

/** Whether `n` shows any text (not blank), remembered in `seen` so a block is read once. */
function showsText(n: DomNode, seen: Map<DomNode, boolean>): boolean {
  if (n.type === 'text') return (n.data ?? '').trim() !== '';
  if (!isElement(n) || NO_TEXT.has(n.name ?? '')) return false;
  let v = seen.get(n);
  if (v === undefined) {
    v = (n.children ?? []).some((c) => showsText(c, seen));
    seen.set(n, v);
  }
  return v;
}

/** The children of `n` that show something, up to `max` + 1 of them. */
function shown(n: DomNode, max: number, seen: Map<DomNode, boolean>): DomNode[] {
  const out: DomNode[] = [];
  for (const c of n.children ?? []) {
    if (!showsText(c, seen)) continue;
    out.push(c);
    if (out.length > max) break;
  }
  return out;
}

/**
 * Whether `pre` holds nothing but line numbers counting up from its first, one a line: two or
 * more, or one beside a code of one line (a one-line command in a numbered layout).
 */
function onlyLineNumbers(pre: DomNode, code: DomNode): boolean {
  const lines = textOf(pre).split('\n').map((l) => l.trim()).filter(Boolean);
  if (!lines.length || !lines.every((l) => /^\d{1,5}$/.test(l))) return false;
  if (lines.length === 1) {
    const one = textOf(code).trim();
    return one !== '' && !one.includes('\n');
  }
  return lines.every((l, i) => Number(l) === Number(lines[0]) + i);
}

/** The gutter elements inside `pre` (see the module's comment); empty when it has none. */
export function lineNumberGutters(pre: DomNode): Set<DomNode> {
  const out = new Set<DomNode>();
  const numbered: DomNode[] = [];
  const seen = new Map<DomNode, boolean>();
  const walk = (n: DomNode) => {
    // A line of two parts: a number alone in an element, then an element holding the line's code
    // (not a token of the code: a line of tokens has more parts, or text beside them).
    // A blank line is the number alone, beside an empty element for its code.
    const parts = shown(n, 2, seen);
    const num = parts[0];
    const kids = n.children ?? [];
    const codeAfter = parts.length === 2 ? isElement(parts[1]!) : parts.length === 1 && kids.slice(kids.indexOf(num!) + 1).some((c) => isElement(c) && !NO_TEXT.has(c.name ?? ''));
    if (num && codeAfter && isElement(num) && !(num.children ?? []).some(isElement) && NUMBER.test(textOf(num))) numbered.push(num);
    for (const c of n.children ?? []) {
      if (!isElement(c)) continue;
      if (GUTTER_NAME.test(classAndId(c))) out.add(c);
      else walk(c);
    }
  };
  walk(pre);
  if (numbered.length >= 2) {
    const first = Number(textOf(numbered[0]!));
    if (numbered.every((c, i) => Number(textOf(c)) === first + i)) for (const c of numbered) out.add(c);
  }
  return out;
}

/** The first element named `name` in `n` (depth first), not looking into tables below `n`. */
function find(n: DomNode, name: string): DomNode | undefined {
  for (const c of n.children ?? []) {
    if (!isElement(c)) continue;
    if (c.name === name) return c;
    if (c.name === 'table') continue;
    const f = find(c, name);
    if (f) return f;
  }
  return undefined;
}

/** The rows of `table` (through `thead`, `tbody`, `tfoot`), up to three. */
function rows(table: DomNode): DomNode[] {
  const out: DomNode[] = [];
  for (const c of table.children ?? []) {
    if (!isElement(c)) continue;
    if (c.name === 'tr') out.push(c);
    else if (c.name === 'tbody' || c.name === 'thead' || c.name === 'tfoot') for (const r of c.children ?? []) if (isElement(r) && r.name === 'tr') out.push(r);
    if (out.length > 2) break;
  }
  return out;
}

/**
 * The `<pre>` of the code when `table` is a code block laid out as a gutter cell of line numbers
 * and a code cell (see the module's comment); undefined for any other table.
 */
export function codeOfGutterTable(table: DomNode): DomNode | undefined {
  const r = rows(table);
  if (r.length !== 1) return undefined;
  const cells = (r[0]!.children ?? []).filter((c) => isElement(c) && (c.name === 'td' || c.name === 'th'));
  if (cells.length !== 2) return undefined;
  const gutter = find(cells[0]!, 'pre');
  const code = find(cells[1]!, 'pre');
  return gutter && code && onlyLineNumbers(gutter, code) ? code : undefined;
}
