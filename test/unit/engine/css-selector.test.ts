import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { cssSelector } from '../../../functions/core/scrapers/input-fields.js';

// Scraper inputs and runbook steps validate selectors with cheerio's slim build (no undici, parse5
// or iconv-lite in API functions). It must accept and refuse exactly what the engine's cheerio does.
const engineAccepts = (sel: string) => {
  try {
    load('<p></p>')(sel);
    return true;
  } catch {
    return false;
  }
};

const SELECTORS = [
  'h1', 'div > p', 'a[href]', 'a[href^="https://"]', 'ul li:nth-child(2n+1)', 'p:not(.x)', 'div p + span ~ em', '#id.class',
  'a:first', 'li:eq(2)', 'li:gt(1)', 'tr:even', 'p:contains("x")', 'input:checked', ':is(h1, h2)', 'div:has(> img)', '*', 'p::before',
  'div >', '[', 'a[href', 'p:unknown-pseudo', 'li:nth-child(x)', '::', ')', 'div ,', '.', '#', 'a:eq()', '>>', 'p:has()', ':not(', 'a][b',
];

describe('cssSelector', () => {
  for (const sel of SELECTORS) {
    it(`${JSON.stringify(sel)}: same verdict as the engine's cheerio`, () => {
      expect(cssSelector.safeParse(sel).success).toBe(engineAccepts(sel));
    });
  }
  it('refuses some and accepts some (the corpus exercises both sides)', () => {
    const verdicts = new Set(SELECTORS.map(engineAccepts));
    expect(verdicts).toEqual(new Set([true, false]));
  });
});
