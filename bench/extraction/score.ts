/**
 * The article-extraction benchmark's scoring, re-implemented (scrapinghub/article-extraction-benchmark,
 * evaluate.py): tokens are runs of word characters (`\w+`, Unicode: letters, digits, underscore),
 * shingles are 4 consecutive tokens counted with multiplicity (a text of fewer than 4 tokens is one
 * shorter shingle). Per page, TP/FP/FN over the shingle multisets are normalised to sum 1 (so long
 * pages weigh no more than short ones); precision and recall are the means over pages (pages with
 * nothing predicted and nothing expected count as 1), F1 is their harmonic mean.
 */

const TOKEN = /[\p{L}\p{N}_]+/gu;
const SEP = '\u0001';

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function shingles(text: string, n = 4): Map<string, number> {
  const tokens = tokenize(text);
  const out = new Map<string, number>();
  const last = Math.max(1, tokens.length - n + 1);
  for (let i = 0; i < last; i++) {
    const s = tokens.slice(i, i + n);
    if (!s.length) continue;
    const key = s.join(SEP);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** Normalised [tp, fp, fn] of one page. */
export type PageCounts = [number, number, number];

export function pageCounts(truth: string, pred: string): PageCounts {
  const t = shingles(truth);
  const p = shingles(pred);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [k, tc] of t) {
    const pc = p.get(k) ?? 0;
    tp += Math.min(tc, pc);
    fn += Math.max(0, tc - pc);
  }
  for (const [k, pc] of p) fp += Math.max(0, pc - (t.get(k) ?? 0));
  const s = tp + fp + fn;
  return s > 0 ? [tp / s, fp / s, fn / s] : [0, 0, 0];
}

export interface Scores {
  f1: number;
  precision: number;
  recall: number;
}

const precisionOf = ([tp, fp, fn]: PageCounts) => (fp === 0 && fn === 0 ? 1 : tp === 0 && fp === 0 ? 0 : tp / (tp + fp));
const recallOf = ([tp, fp, fn]: PageCounts) => (fp === 0 && fn === 0 ? 1 : tp === 0 && fn === 0 ? 0 : tp / (tp + fn));
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Precision, recall and F1 over pages, as the benchmark computes them. */
export function aggregate(pages: PageCounts[]): Scores {
  const precision = mean(pages.filter(([tp, fp]) => tp + fp > 0).map(precisionOf));
  const recall = mean(pages.filter(([tp, , fn]) => tp + fn > 0).map(recallOf));
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { f1, precision, recall };
}
