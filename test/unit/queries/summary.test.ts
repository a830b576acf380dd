import { describe, expect, it } from 'vitest';
import type { SourceItem } from '../../../functions/core/sources/types.js';
import { sentimentScore, summarize, termsOf } from '../../../functions/core/queries/summary.js';

let seq = 0;
const item = (source: SourceItem['source'], text: string): SourceItem => ({
  source,
  id: String(++seq),
  url: `https://example.com/${seq}`,
  author: 'someone',
  text,
  created_at: '2026-03-18T10:00:00.000Z',
  metrics: {},
});

describe('summarize', () => {
  it('counts items in total and per source, listing every source of by_source', () => {
    const items = [item('x', 'a'), item('x', 'b'), item('reddit', 'c')];
    const s = summarize(items, {
      x: { status: 'ok', count: 5 },
      reddit: { status: 'ok', count: 1 },
      youtube: { status: 'error', count: 0 },
    });
    expect(s.total).toBe(3);
    expect(s.by_source).toEqual({ x: 2, reddit: 1, youtube: 0 });
  });

  it('empty results', () => {
    expect(summarize([], { x: { status: 'error', count: 0 } })).toStrictEqual({
      total: 0,
      by_source: { x: 0 },
      top_terms: [],
      sentiment: { average: 0, positive: 0, neutral: 0, negative: 0 },
    });
  });

  it('top terms: per-item counts, stop words, URLs, mentions and numbers dropped, hashtags kept', () => {
    const items = [
      item('x', 'The Rust compiler is fast https://rust-lang.org/fast #rustlang @ferris'),
      item('x', 'rust rust RUST compiler, 2026 and www.example.com/rust'),
      item('reddit', "Rust's borrow checker and the #RustLang community"),
    ];
    const s = summarize(items, { x: { status: 'ok', count: 2 }, reddit: { status: 'ok', count: 1 } });
    expect(s.top_terms).toStrictEqual([
      { term: 'rust', count: 3 },
      { term: '#rustlang', count: 2 },
      { term: 'compiler', count: 2 },
      { term: 'borrow', count: 1 },
      { term: 'checker', count: 1 },
      { term: 'community', count: 1 },
      { term: 'fast', count: 1 },
    ]);
  });

  it('keeps at most 10 terms, ties ordered by term', () => {
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima';
    const s = summarize([item('x', words), item('x', 'lima kilo')], {});
    expect(s.top_terms).toHaveLength(10);
    expect(s.top_terms.slice(0, 3)).toStrictEqual([
      { term: 'kilo', count: 2 },
      { term: 'lima', count: 2 },
      { term: 'alpha', count: 1 },
    ]);
    expect(s.top_terms.at(-1)).toStrictEqual({ term: 'hotel', count: 1 });
  });

  it('sentiment polarity on obvious examples', () => {
    const items = [
      item('x', 'I love this phone, it is amazing and wonderful!'),
      item('x', 'Great service, happy customer'),
      item('reddit', 'This is terrible, awful and horrible. I hate it.'),
      item('reddit', 'The train leaves at 9 from platform 4'),
    ];
    const s = summarize(items, {});
    expect(s.sentiment.positive).toBe(2);
    expect(s.sentiment.negative).toBe(1);
    expect(s.sentiment.neutral).toBe(1);
    const expected = items.reduce((sum, i) => sum + sentimentScore(i.text), 0) / items.length;
    expect(s.sentiment.average).toBeCloseTo(expected, 4);
    expect(s.sentiment.average).toBeGreaterThan(0);
  });

  it('overall negative average when most items are negative', () => {
    const s = summarize([item('x', 'worst product ever, broken and useless'), item('x', 'disappointing, sad, bad')], {});
    expect(s.sentiment).toMatchObject({ positive: 0, neutral: 0, negative: 2 });
    expect(s.sentiment.average).toBeLessThan(-0.05);
  });

  it('empty text is neutral with score 0', () => {
    expect(sentimentScore('')).toBe(0);
    expect(summarize([item('x', '')], {}).sentiment).toStrictEqual({ average: 0, positive: 0, neutral: 1, negative: 0 });
  });
});

describe('termsOf', () => {
  it('lowercases, strips possessives and trailing punctuation, keeps hashtags distinct', () => {
    expect([...termsOf("OpenAI's #AI model—AI, ai! e-mail me@x.io http://t.co/abc RT @bob 42")]).toStrictEqual([
      'openai',
      '#ai',
      'model',
      'ai',
      'e-mail',
    ]);
  });
});
