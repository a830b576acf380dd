import { squash } from '../content/dom.js';

/**
 * The page title without building a document tree, for requests that want nothing else from the
 * parse (formats `html` and `screenshot`): the HTML5 tree builder costs more than the rest of such
 * a request. Only the plain, common shape of a document's start is read here; on anything else
 * the answer is null and the caller parses the page as usual, so the title is always the one
 * `parsePage` gives (the first `<title>` of the document, whitespace squashed).
 *
 * Read: optional doctype, then only whitespace and `<html>`, `<head>`, `<meta>`, `<link>`,
 * `<base>`, `<script>…</script>` and `<style>…</style>` (attributes read as the HTML tokenizer
 * reads them), then `<title>` without attributes and its text up to `</title>`. That prefix
 * builds nothing but head elements, so that `<title>` is the document's first title element and,
 * having no attributes, no overlay removal touches it. Given up (null) on a comment, any other
 * tag, text, a script holding `<!--` (the tokenizer's escaped states), a title holding NUL or a
 * character reference outside a small unambiguous set, or an empty title (the parse then falls
 * back to og:title or the first h1).
 */

const HEAD_TAGS = new Set(['html', 'head', 'meta', 'link', 'base']);

/** Character references decoded here; any other reference sends the page to the full parse. */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ndash: '\u2013', mdash: '\u2014', hellip: '\u2026',
  laquo: '\u00ab', raquo: '\u00bb', lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d', middot: '\u00b7',
  bull: '\u2022', copy: '\u00a9', reg: '\u00ae', trade: '\u2122',
};

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
const isAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * Index just past the `>` of the start tag whose attributes begin at `i` (after the tag name),
 * reading attribute names and values as the tokenizer does (a quote only opens a value right
 * after `=`); -1 at the end of input.
 */
function startTagEnd(html: string, i: number): number {
  const n = html.length;
  for (;;) {
    while (i < n && (isSpace(html.charCodeAt(i)) || html.charCodeAt(i) === 47)) i++;
    if (i >= n) return -1;
    if (html.charCodeAt(i) === 62) return i + 1;
    // Attribute name: up to whitespace, '/', '>' or '=' (a leading '=' belongs to the name).
    i++;
    while (i < n) {
      const c = html.charCodeAt(i);
      if (isSpace(c) || c === 47 || c === 62 || c === 61) break;
      i++;
    }
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    if (i >= n) return -1;
    if (html.charCodeAt(i) !== 61) continue;
    i++;
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    if (i >= n) return -1;
    const q = html.charCodeAt(i);
    if (q === 34 || q === 39) {
      const close = html.indexOf(q === 34 ? '"' : "'", i + 1);
      if (close < 0) return -1;
      i = close + 1;
    } else {
      while (i < n && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 62) i++;
    }
  }
}

const END_TAG = { title: /<\/title[\t\n\f\r />]/gi, script: /<\/script[\t\n\f\r />]/gi, style: /<\/style[\t\n\f\r />]/gi };

/** Index of the end tag `</name` (followed by whitespace, `/` or `>`) from `from`, any case; -1 if none. */
function endTagAt(html: string, name: 'title' | 'script' | 'style', from: number): number {
  const re = END_TAG[name];
  re.lastIndex = from;
  return re.exec(html)?.index ?? -1;
}

/** Title text with its character references decoded, or null for one not decoded here. */
function decodeTitle(raw: string): string | null {
  if (raw.includes('\0')) return null;
  if (!raw.includes('&')) return raw;
  let failed = false;
  const out = raw.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{1,31})?;?/g, (m, ref: string | undefined) => {
    if (!ref || !m.endsWith(';')) {
      failed = true;
      return m;
    }
    if (ref[0] !== '#') {
      const v = NAMED[ref];
      if (v === undefined) failed = true;
      return v ?? m;
    }
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    // C0/C1 controls, surrogates and out-of-range values have special rules: the full parse decides.
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) {
      failed = true;
      return m;
    }
    return String.fromCodePoint(code);
  });
  return failed ? null : out;
}

/** The document's title when its start has the plain shape described above, else null. */
export function headTitle(html: string): string | null {
  const n = html.length;
  let i = 0;
  for (let first = true; ; first = false) {
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    if (i >= n || html.charCodeAt(i) !== 60 /* < */) return null;
    if (html.charCodeAt(i + 1) === 33 /* ! */) {
      // Only a doctype, and only as the first thing: any other `<!` (a comment) is left to the parse.
      if (!first || html.slice(i + 2, i + 9).toLowerCase() !== 'doctype') return null;
      const end = html.indexOf('>', i);
      if (end < 0) return null;
      i = end + 1;
      continue;
    }
    let j = i + 1;
    if (!isAlpha(html.charCodeAt(j))) return null; // end tags, stray '<'
    while (j < n && isAlpha(html.charCodeAt(j))) j++;
    const name = html.slice(i + 1, j).toLowerCase();
    const next = html.charCodeAt(j);
    if (!(isSpace(next) || next === 47 || next === 62)) return null; // `<h1`, `<meta-x`…
    if (name === 'title') {
      const open = /^[\t\n\f\r ]*>/.exec(html.slice(j, j + 64));
      if (!open) return null; // attributes: the full parse decides
      const start = j + open[0].length;
      const end = endTagAt(html, 'title', start);
      if (end < 0) return null;
      const text = decodeTitle(html.slice(start, end));
      if (text === null) return null;
      return squash(text) || null;
    }
    if (!HEAD_TAGS.has(name) && name !== 'script' && name !== 'style') return null;
    const after = startTagEnd(html, j);
    if (after < 0) return null;
    i = after;
    if (name === 'script' || name === 'style') {
      const end = endTagAt(html, name, i);
      if (end < 0) return null;
      if (name === 'script' && html.slice(i, end).includes('<!--')) return null;
      const close = startTagEnd(html, end + 2 + name.length);
      if (close < 0) return null;
      i = close;
    }
  }
}
