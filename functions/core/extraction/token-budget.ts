/**
 * Token estimates and the page cut. Providers count tokens with their own tokenizers, which the
 * service does not have. A flat ~4 characters a token holds for English prose only: Japanese or
 * Chinese text is about one token a character, Cyrillic, Greek, Arabic or Hebrew about one per two
 * or three, so a flat rate let a page in those scripts reserve a quarter of what it then spent.
 * The estimate is per character by script, each rate near the high end of what current tokenizers
 * spend on that script, so a reservation errs high rather than low. The real counts come back in
 * the provider's usage and are what is metered.
 */

/** Characters a token of plain English prose and markdown (the cheapest text). */
export const CHARS_PER_TOKEN = 4;

/** Estimated tokens of one UTF-16 code unit, by what it is. */
function unitCost(c: number): number {
  if (c < 0x80) {
    // Letters and spaces: ~4 a token; digits, punctuation and symbols (code, tables, URLs) split more.
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x20 || c === 0x0a) return 1 / CHARS_PER_TOKEN;
    return 1 / 2;
  }
  if (c < 0x0370) return 1 / 3; // Latin-1 and Latin Extended (accented letters)
  if (c < 0x0900) return 1 / 2; // Greek, Cyrillic, Armenian, Hebrew, Arabic, Syriac, Thaana
  if (c < 0x1100) return 1; // Indic scripts, Thai, Lao, Tibetan, Myanmar, Georgian
  if (c >= 0x2e80 && c < 0xa000) return 1.5; // CJK radicals, kana, ideographs, Hangul compatibility
  if (c >= 0xac00 && c < 0xd800) return 1.5; // Hangul syllables
  if (c >= 0xd800 && c < 0xe000) return 1; // half of a surrogate pair (emoji, rare ideographs): 2 a character
  return 1;
}

/** Estimated tokens of `text` (see the module comment: errs high). */
export function estimateTokens(text: string): number {
  let t = 0;
  for (let i = 0; i < text.length; i++) t += unitCost(text.charCodeAt(i));
  return Math.ceil(t);
}

/** Length of the longest prefix of `text` estimated within `maxTokens` (never half a surrogate pair). */
function prefixWithin(text: string, maxTokens: number): number {
  let t = 0;
  let i = 0;
  for (; i < text.length; i++) {
    t += unitCost(text.charCodeAt(i));
    if (t > maxTokens) break;
  }
  if (i > 0 && i < text.length && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) < 0xdc00) i--;
  return i;
}

export interface CutResult {
  text: string;
  truncated: boolean;
}

/** Sentence ends of scripts written without spaces (CJK): a block is cut there when it has no whitespace. */
const CJK_BREAK = /[。！？；、」』）]/g;

/**
 * `markdown` cut to about `maxTokens`, at a block boundary (a blank line: paragraphs, headings,
 * list and table blocks stay whole). When even the first block is over budget, it is cut at the
 * last whitespace before the limit, never inside a word; text written without spaces (Chinese,
 * Japanese) is cut after its last sentence or clause mark before the limit.
 */
export function cutToBudget(markdown: string, maxTokens: number): CutResult {
  const limit = prefixWithin(markdown, Math.max(0, maxTokens));
  if (limit >= markdown.length) return { text: markdown, truncated: false };
  // The last block boundary at or before the limit.
  const head = markdown.slice(0, limit + 1);
  const boundary = head.lastIndexOf('\n\n');
  if (boundary > 0) return { text: markdown.slice(0, boundary).trimEnd(), truncated: true };
  // One block longer than the budget: the last whitespace before the limit.
  const space = head.search(/\s\S*$/);
  if (space > 0) return { text: markdown.slice(0, space).trimEnd(), truncated: true };
  let mark = -1;
  for (const m of head.slice(0, limit).matchAll(CJK_BREAK)) mark = m.index + 1;
  return { text: mark > 0 ? markdown.slice(0, mark) : '', truncated: true };
}
