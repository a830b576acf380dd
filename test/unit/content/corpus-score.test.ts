import { describe, expect, it } from 'vitest';
import { aggregate, pageCounts, shingles, tokenize } from '../../../bench/extraction/score.js';
import { markdownToPlain } from '../../../bench/extraction/plain.js';
import { markedText } from '../../../bench/extraction/corpus.js';
import { snippetRates, wordScore } from '../../../bench/content/words.js';

// The extraction bench's scoring (the article-extraction benchmark's evaluate.py, re-implemented).
describe('benchmark scoring', () => {
  it('tokenizes word characters in any script, keeping case', () => {
    expect(tokenize('Héllo, wörld! Привет мир 東京 snake_case 42')).toEqual(['Héllo', 'wörld', 'Привет', 'мир', '東京', 'snake_case', '42']);
  });

  it('counts 4-token shingles with multiplicity; shorter texts are one shingle', () => {
    expect([...shingles('a b c d e').values()]).toEqual([1, 1]);
    expect(shingles('a b c d a b c d').get(['a', 'b', 'c', 'd'].join('\u0001'))).toBe(2);
    expect([...shingles('only two').keys()]).toHaveLength(1);
    expect(shingles('').size).toBe(0);
  });

  it('normalises each page to tp+fp+fn = 1 and averages precision and recall over pages', () => {
    // truth: 3 shingles; prediction: 2 of them plus 1 extra -> tp 2, fp 1, fn 1 (of 4).
    const [tp, fp, fn] = pageCounts('w1 w2 w3 w4 w5 w6', 'w2 w3 w4 w5 w6 x1');
    expect([tp, fp, fn].map((x) => x * 4)).toEqual([2, 1, 1]);
    const s = aggregate([pageCounts('a b c d', 'a b c d'), pageCounts('a b c d e', '')]);
    // Page 2 predicts nothing: it has no precision (tp+fp = 0) and recall 0.
    expect(s.precision).toBe(1);
    expect(s.recall).toBe(0.5);
    expect(s.f1).toBeCloseTo(2 / 3, 10);
  });

  it('plain markdown drops link targets, images and emphasis underscores', () => {
    expect(markdownToPlain('The _Star Trek_ film, see [docs](https://x.test/a_b) ![logo](https://x.test/l.png) snake_case')).toBe('The Star Trek film, see docs  snake_case');
    // An autolink is a link whose text is its URL: the page shows that URL, as it shows [url](url).
    expect(markdownToPlain('Buy: <http://amzn.to/2i0gA5U> or [**http://amzn.to/2iJ**](http://amzn.to/2iJ)')).toBe('Buy: http://amzn.to/2i0gA5U or http://amzn.to/2iJ');
    // A fence's language and a cell's line break are markup, not words of the page.
    expect(markdownToPlain('```python\nx = 1\n```\n\n| a<br>b |')).toBe('```\nx = 1\n```\n\n| a b |');
  });

  it('plain markdown drops the markers a reader never sees, not code nor list numbers', () => {
    expect(markdownToPlain('## A **bold** head\n- item *one* here\n> quoted ~~old~~ text\n1. kept')).toBe('A bold head\nitem one here\nquoted old text\n1. kept');
    // A sentence with a bold phrase is found as the page shows it.
    expect(markdownToPlain('reached about **USD 56 billion in 2024**.')).toContain('reached about USD 56 billion in 2024.');
    // Code stays as written; a lone asterisk and an escaped one are text.
    expect(markdownToPlain('```\n**x** - y\n# z\n```\na * b \\*c\\*')).toBe('```\n**x** - y\n# z\n```\na * b *c*');
    // An inline code span reads as its code: "returns `true` if" is "returns true if" on the page.
    expect(markdownToPlain('returns `true` if the `Result` is ``a`b`` here')).toBe('returns true if the Result is a`b here');
    expect(markdownToPlain('```\nlet s = `x`;\n```')).toBe('```\nlet s = `x`;\n```');
  });

  it('the content bench: word F1 over \\w+ words; snippets found whatever the case, white space or typographic quotes', () => {
    expect(wordScore('The cat sat', 'the cat').f1).toBeCloseTo(0.8, 5);
    // The reference's snippets straighten the page's quotes: "Tux's" is found in "Tux’s".
    const [found, absent] = snippetRates('Generation Tux’s  carefully curated “dress” shoes', ["generation tux's carefully", 'curated "dress" shoes', 'socks'], ['Add to cart']);
    expect(found).toBeCloseTo(2 / 3, 5);
    expect(absent).toBe(1);
  });

  it('reads the expected text of a corpus page from its marked regions only', () => {
    expect(markedText('<nav>menu</nav><!--main--><h1>Title</h1><p>Body <b>text</b>.</p><!--/main--><footer>x</footer><!--main--><p>More</p><!--/main-->')).toBe('Title\nBody text.\nMore');
  });
});
