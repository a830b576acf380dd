import Sentiment from 'sentiment';
import type { SourceItem } from '../sources/types.js';
import { ENGLISH_STOP_WORDS } from './rule-planner.js';

/** results.summary (API.md "Queries surface"). */
export interface QuerySummary {
  total: number;
  by_source: Record<string, number>;
  top_terms: Array<{ term: string; count: number }>;
  sentiment: { average: number; positive: number; neutral: number; negative: number };
}

export interface SourceOutcome {
  status: string;
  count: number;
}

export const TOP_TERMS_LIMIT = 10;
/** Comparative-score thresholds: above is positive, below the negative one is negative. */
export const POSITIVE_THRESHOLD = 0.05;
export const NEGATIVE_THRESHOLD = -0.05;

/** Social-media noise that is not a topic. */
const NOISE_WORDS = new Set(['rt', 'amp', 'gt', 'lt', 'nbsp', 'http', 'https', 'www', 'com', 'via', 'lol', 'omg']);

const URL_RE = /(?:https?:\/\/|www\.)\S+/giu;
const MENTION_RE = /(?<![\p{L}\p{N}_])@[\p{L}\p{N}_.]+/gu;
const EMAIL_RE = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
const TERM_RE = /#?[\p{L}\p{N}][\p{L}\p{N}_'\u2019-]*/gu;

// One analyzer for the process: construction loads the AFINN word list.
const analyzer = new Sentiment();

/** Text with URLs, e-mail addresses and @mentions removed. */
const stripNoise = (text: string): string => text.replace(URL_RE, ' ').replace(EMAIL_RE, ' ').replace(MENTION_RE, ' ');

/** The distinct terms of one text: lowercase words and #hashtags, no stop words, numbers or URLs. */
export function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  for (const m of stripNoise(text).toLowerCase().matchAll(TERM_RE)) {
    const term = m[0].replace(/\u2019/g, "'").replace(/['_-]+$/u, '').replace(/'s$/u, '');
    const word = term.startsWith('#') ? term.slice(1) : term;
    if (word.length < 2 || /^\p{N}+$/u.test(word)) continue;
    if (!term.startsWith('#') && (ENGLISH_STOP_WORDS.has(word) || NOISE_WORDS.has(word))) continue;
    terms.add(term);
  }
  return terms;
}

/** Comparative sentiment score of one text (AFINN score per token; 0 for empty text). */
export function sentimentScore(text: string): number {
  const { comparative } = analyzer.analyze(stripNoise(text));
  return Number.isFinite(comparative) ? comparative : 0;
}

const round = (n: number, digits = 4): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f + 0; // + 0 turns -0 into 0
};

/**
 * Summarize the items of a query result.
 *
 * - `total`: number of items.
 * - `by_source`: items per source; every source in `bySource` appears, with 0 when it returned none.
 * - `top_terms`: the 10 terms found in the most items (a term counts once per item), ties by
 *   term; words are lowercased, stop words, numbers, URLs and @mentions dropped, #hashtags kept
 *   (as `#tag`, distinct from the bare word).
 * - `sentiment`: the `sentiment` package's comparative score per item; `average` is their mean
 *   (4 decimals, 0 when there are no items); an item is positive above 0.05, negative below
 *   -0.05, neutral otherwise. The word list is English; other languages score mostly neutral.
 */
export function summarize(items: SourceItem[], bySource: Record<string, SourceOutcome>): QuerySummary {
  const by_source: Record<string, number> = {};
  for (const source of Object.keys(bySource).sort()) by_source[source] = 0;
  const termCounts = new Map<string, number>();
  let scoreSum = 0;
  let positive = 0;
  let neutral = 0;
  let negative = 0;

  for (const item of items) {
    by_source[item.source] = (by_source[item.source] ?? 0) + 1;
    for (const term of termsOf(item.text ?? '')) termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
    const score = sentimentScore(item.text ?? '');
    scoreSum += score;
    if (score > POSITIVE_THRESHOLD) positive++;
    else if (score < NEGATIVE_THRESHOLD) negative++;
    else neutral++;
  }

  const top_terms = [...termCounts]
    .sort(([a, ca], [b, cb]) => cb - ca || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, TOP_TERMS_LIMIT)
    .map(([term, count]) => ({ term, count }));

  return {
    total: items.length,
    by_source,
    top_terms,
    sentiment: { average: items.length ? round(scoreSum / items.length) : 0, positive, neutral, negative },
  };
}
