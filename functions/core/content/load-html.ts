import { load, type CheerioAPI } from 'cheerio';
import { AppError } from '../errors.js';

/**
 * Deepest element nesting a page may have. The HTML5 tree builder's cost grows with the square of
 * the depth (its stack of open elements is searched for each new tag): 5,000 nested divs took
 * 0.3 s to load, 20,000 took 7 s, on the main thread. Real pages stay in the hundreds.
 */
export const MAX_HTML_DEPTH = 2_500;

/** Elements with no end tag, and those whose end tag the tree builder implies (they never pile up). */
const NO_DEPTH = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr', 'keygen', 'frame',
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup', 'thead', 'tbody', 'tfoot', 'colgroup', 'caption', 'rb', 'rp', 'rt', 'rtc',
  'html', 'head', 'body',
]);
/** Elements whose content is text up to their own end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 58 || c === 95;

/**
 * How deep `html` nests its elements, read in one forward pass (no tree is built), stopping as
 * soon as the depth passes `limit`. An approximation of the tree builder's own count: it can only
 * count more than the builder (an element the builder would close implicitly is still open
 * here), never miss a pile of real nesting.
 */
export function htmlDepth(html: string, limit = MAX_HTML_DEPTH): number {
  let depth = 0;
  let max = 0;
  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    const c = html.charCodeAt(lt + 1);
    if (c === 33 /* ! */) {
      const end = html.startsWith('<!--', lt) ? html.indexOf('-->', lt + 4) : html.indexOf('>', lt + 2);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    if (c === 63 /* ? */) {
      const end = html.indexOf('>', lt + 2);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    const closing = c === 47; /* / */
    let j = lt + (closing ? 2 : 1);
    if (!isNameStart(html.charCodeAt(j))) {
      i = lt + 1;
      continue;
    }
    const start = j;
    while (j < n && isNameChar(html.charCodeAt(j))) j++;
    const name = html.slice(start, j).toLowerCase();
    // The end of the tag, outside quoted attribute values.
    let quote = 0;
    while (j < n) {
      const d = html.charCodeAt(j);
      if (quote) {
        if (d === quote) quote = 0;
      } else if (d === 34 || d === 39) quote = d;
      else if (d === 62 /* > */) break;
      j++;
    }
    if (j >= n) break;
    const selfClosing = html.charCodeAt(j - 1) === 47;
    i = j + 1;
    if (closing) {
      if (!NO_DEPTH.has(name) && depth > 0) depth--;
      continue;
    }
    if (RAW_TEXT.has(name)) {
      // Skip the element's text to its end tag (any case).
      const re = new RegExp(`</${name}[\\s/>]`, 'ig');
      re.lastIndex = i;
      const m = re.exec(html);
      i = m ? m.index + m[0].length : n;
      continue;
    }
    if (selfClosing || NO_DEPTH.has(name)) continue;
    if (++depth > max) {
      max = depth;
      if (max > limit) return max;
    }
  }
  return max;
}

/**
 * Load a page's HTML for reading (cheerio, the HTML5 tree builder), after checking in linear time
 * that it does not nest deeper than {@link MAX_HTML_DEPTH}: such a page is a 422
 * `document_too_complex` naming the limit, before the builder spends seconds on it.
 */
export function loadHtml(html: string, what = 'The page'): CheerioAPI {
  if (html.length > MAX_HTML_DEPTH * 2 && htmlDepth(html) > MAX_HTML_DEPTH) {
    throw new AppError(422, 'document_too_complex', `${what} nests its elements more than ${MAX_HTML_DEPTH} deep, past what Gleaner reads`, [{ path: 'html', message: `nesting depth over ${MAX_HTML_DEPTH}` }]);
  }
  return load(html);
}
