import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

// A forum thread whose posts are only in the <noscript> crawler view (the parser keeps a
// <noscript>'s content as raw text): the main content is every post of that view, in order,
// with its author and date line, not the empty loading shell.
describe('a page whose readable version is in a <noscript>', () => {
  const html = readFileSync(new URL('../../fixtures/content-kinds/discourse-noscript.html', import.meta.url), 'utf8');
  const md = parsePage(load(html), 'https://forum.example/t/which-tide-table-do-you-trust/4411', { text: false, links: false, metadata: false }).markdown;

  it('gives every post in order', () => {
    const order = ['two tide tables I use disagree', 'computed for the pier itself', 'That explains it, thank you', 'a strong westerly holds the water'].map((s) => md.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('keeps the author and date lines of the posts, not the footer', () => {
    expect(md).toContain('olek');
    expect(md).toContain('March 3, 2024');
    expect(md).not.toMatch(/Terms of service|Loading…/);
  });

  it('a small <noscript> (a tracking pixel, a "turn on JavaScript" line) changes nothing', () => {
    const small = '<html><body><main><h1>Tides</h1><p>The tide turns twice a day, a little later each day, following the moon around the earth.</p></main><noscript><p>Please enable JavaScript.</p><img src="/px.gif"></noscript></body></html>';
    const out = parsePage(load(small), 'https://x.example/', { text: false, links: false, metadata: false }).markdown;
    expect(out).toContain('The tide turns twice a day');
    expect(out).not.toContain('enable JavaScript');
  });
});
