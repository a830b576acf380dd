/**
 * WCXB's scoring: lower-case, words are `\w+` (Unicode letters, digits, underscore), precision,
 * recall and F1 of the word multisets of one page; means over pages. Snippet rates: the share of a
 * page's `with` snippets found in the output, and of its `without` snippets absent from it
 * (whitespace-normalised, case-insensitive).
 */
const WORD = /[\p{L}\p{N}_]+/gu;

export interface WordScore {
  precision: number;
  recall: number;
  f1: number;
}

function bag(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of text.toLowerCase().match(WORD) ?? []) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

export function wordScore(truth: string, pred: string): WordScore {
  const t = bag(truth);
  const p = bag(pred);
  let tp = 0;
  let nt = 0;
  let np = 0;
  for (const c of t.values()) nt += c;
  for (const [w, c] of p) {
    np += c;
    tp += Math.min(c, t.get(w) ?? 0);
  }
  if (nt === 0 && np === 0) return { precision: 1, recall: 1, f1: 1 };
  const precision = np ? tp / np : 0;
  const recall = nt ? tp / nt : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

// Snippets are matched as a reader reads them: case, runs of white space and typographic quotes
// aside (the references' snippets straighten the page's ’ and “”: "Tux's" for the page's "Tux’s").
const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[‘’‚‛′]/g, "'")
    .replace(/[“”„‟″]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();

/** [share of `with` found, share of `without` absent]; NaN when the page has none of that kind. */
export function snippetRates(pred: string, withs: string[], withouts: string[]): [number, number] {
  const text = norm(pred);
  const found = withs.filter((s) => text.includes(norm(s))).length;
  const absent = withouts.filter((s) => !text.includes(norm(s))).length;
  return [withs.length ? found / withs.length : NaN, withouts.length ? absent / withouts.length : NaN];
}

export const mean = (xs: number[]): number => {
  const v = xs.filter((x) => !Number.isNaN(x));
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN;
};
