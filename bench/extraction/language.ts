/**
 * The language of a bench page, for the extraction bench's per-language breakdown: the page's own
 * declaration (`<html lang>`, `content-language`, `og:locale`, JSON-LD `inLanguage`), else a guess
 * from its script when the page text is mostly Cyrillic, Kana, Hangul, Han, Arabic, Greek or
 * Hebrew; `?` when neither says (a Latin-script page that declares nothing).
 */
const DECLARED = [
  /<html\b[^>]*\blang\s*=\s*["']?([a-zA-Z]{2,3})/i,
  /<meta\b[^>]*http-equiv\s*=\s*["']?content-language["']?[^>]*content\s*=\s*["']?([a-zA-Z]{2,3})/i,
  /<meta\b[^>]*property\s*=\s*["']og:locale["'][^>]*content\s*=\s*["']?([a-zA-Z]{2,3})/i,
  /"inLanguage"\s*:\s*"([a-zA-Z]{2,3})/,
];

const SCRIPTS: [string, RegExp][] = [
  ['ja', /[\u3040-\u30ff]/g],
  ['ko', /[\uac00-\ud7af]/g],
  ['zh', /[\u4e00-\u9fff]/g],
  ['ru', /[\u0400-\u04ff]/g],
  ['ar', /[\u0600-\u06ff]/g],
  ['el', /[\u0370-\u03ff]/g],
  ['he', /[\u0590-\u05ff]/g],
];

/** Two-letter (or three-letter) lowercase language code of a page, or `?`. */
export function pageLanguage(html: string, expected: string): string {
  for (const re of DECLARED) {
    const m = re.exec(html);
    if (m) return m[1].toLowerCase();
  }
  const letters = (expected.match(/\p{L}/gu) ?? []).length;
  if (!letters) return '?';
  // Kana before Han: Japanese text is mostly Han with some Kana.
  for (const [lang, re] of SCRIPTS) {
    const n = (expected.match(re) ?? []).length;
    if (lang === 'ja' ? n > letters * 0.05 : n > letters * 0.3) return lang;
  }
  return '?';
}
