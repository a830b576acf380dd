import { describe, expect, it } from 'vitest';
import { cutToBudget, estimateTokens } from '../../../functions/core/extraction/token-budget.js';

describe('estimateTokens', () => {
  it('counts English prose at about four characters a token', () => {
    const text = 'The harbour master wrote the tide table for March in a small notebook.';
    expect(estimateTokens(text)).toBe(Math.ceil(text.length / 4));
  });

  it('counts scripts that tokenizers split finer at their own rates, never at the English one', () => {
    const ja = '港の灯台守は四十年間、毎晩天気の報告を書いた。';
    const zh = '市立图书馆收藏十八世纪的地图。';
    const ko = '등대지기는 사십 년 동안 매일 저녁 날씨를 기록했다.';
    const ru = 'Смотритель маяка сорок лет каждый вечер записывал погоду.';
    const hi = 'प्रकाशस्तंभ रक्षक ने चालीस वर्षों तक हर शाम मौसम लिखा।';
    for (const t of [ja, zh]) expect(estimateTokens(t)).toBeGreaterThanOrEqual(t.length);
    for (const t of [ko, hi]) expect(estimateTokens(t)).toBeGreaterThanOrEqual(t.length * 0.8);
    expect(estimateTokens(ru)).toBeGreaterThanOrEqual(ru.length / 2.2);
    for (const t of [ja, zh, ko, ru, hi]) expect(estimateTokens(t)).toBeGreaterThan(Math.ceil(t.length / 4) * 1.5);
  });

  it('counts digits and punctuation (code, tables, URLs) above letters', () => {
    expect(estimateTokens('| 2026-11-28 | 12,345.67 | https://a.b/c?d=1 |')).toBeGreaterThan(Math.ceil(45 / 4) * 1.5);
  });
});

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

  it('cuts text written without spaces after its last sentence mark within the budget', () => {
    const ja = '港の灯台守は毎晩天気を書いた。船は一時間ごとに出る。切符は船内で売られている。';
    const out = cutToBudget(ja, estimateTokens('港の灯台守は毎晩天気を書いた。船は一時間ごと'));
    expect(out).toEqual({ text: '港の灯台守は毎晩天気を書いた。', truncated: true });
  });

  it('never leaves half of a surrogate pair', () => {
    const out = cutToBudget('🌊'.repeat(50), 7);
    expect(out.text).toBe('');
    expect(cutToBudget('🌊🌊 🌊🌊 🌊🌊', 5).text).toBe('🌊🌊');
  });

  it('gives nothing rather than half a word when the first word alone is over budget', () => {
    expect(cutToBudget('x'.repeat(100), 5)).toEqual({ text: '', truncated: true });
  });
});
