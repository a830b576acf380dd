import { describe, expect, it } from 'vitest';
import { cutToBudget, estimateTokens } from '../../../functions/core/extraction/token-budget.js';

describe('cutToBudget', () => {
  it('leaves a page within the budget as it is', () => {
    const md = '# Title\n\nA short page.';
    expect(cutToBudget(md, estimateTokens(md))).toEqual({ text: md, truncated: false });
  });

  it('cuts at the last block boundary within the budget', () => {
    const blocks = ['# Title', 'First paragraph of the page.', '- a list item\n- another item', 'Last paragraph that does not fit.'];
    const md = blocks.join('\n\n');
    const budget = estimateTokens(blocks.slice(0, 3).join('\n\n')) + 2; // a little more than three blocks
    const out = cutToBudget(md, budget);
    expect(out).toEqual({ text: blocks.slice(0, 3).join('\n\n'), truncated: true });
  });

  it('cuts one over-long block at a word boundary, never inside a word', () => {
    const md = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    for (const budget of [5, 13, 50, 101]) {
      const out = cutToBudget(md, budget);
      expect(out.truncated).toBe(true);
      expect(out.text.length).toBeLessThanOrEqual(budget * 4);
      expect(md.startsWith(out.text)).toBe(true);
      expect(md[out.text.length]).toBe(' '); // the next character is the space after a whole word
    }
  });

  it('gives nothing rather than half a word when the first word alone is over budget', () => {
    expect(cutToBudget('x'.repeat(100), 5)).toEqual({ text: '', truncated: true });
  });
});
