import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { repairMojibake } from '../../../functions/core/content/mojibake.js';
import { parsePage } from '../../../functions/core/engine/parse.js';

// UTF-8 read as Windows-1252 (or Latin-1) and written out again: what a page's own bytes say when
// its CMS double-encoded them.
const garble = (s: string) => {
  const cp1252: Record<number, string> = { 0x80: '€', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x96: '–', 0x97: '—', 0x99: '™', 0x9c: 'œ' };
  return [...new TextEncoder().encode(s)].map((b) => cp1252[b] ?? String.fromCharCode(b)).join('');
};

describe('mojibake repair (repairMojibake)', () => {
  it("puts back text a page spells as UTF-8 read as Windows-1252 or Latin-1: quotes, dashes, accents, a no-break space, an emoji", () => {
    const text = 'It doesn’t have to be costly — an “été” in Québec, 10\u00a0€ a day 🙂';
    expect(garble(text)).toContain('doesnâ€™t');
    const $ = load(`<body><main><h1>${garble('Pet insurance — costs')}</h1><p>${garble(text)}</p><p>Latin-1 spelling: don${'\u00e2\u0080\u0099'}t</p></main></body>`);
    expect(repairMojibake($)).toBeGreaterThanOrEqual(8);
    expect($('h1').text()).toBe('Pet insurance — costs');
    expect($('p').first().text()).toBe(text);
    expect($('p').last().text()).toBe('Latin-1 spelling: don’t');
    // Once a document.
    expect(repairMojibake($)).toBe(0);
  });

  it('leaves meant text alone: fewer than three runs, a German word ending in ß before its closing quote, scripts and styles', () => {
    const one = load(`<body><p>${garble('Café')} is fine</p></body>`);
    expect(repairMojibake(one)).toBe(0);
    expect(one('p').text()).toBe('CafÃ© is fine');
    const german = load('<body><p>„Fuß“, „Maß“ und „groß“ sind Wörter; „Spaß“ auch.</p></body>');
    expect(repairMojibake(german)).toBe(0);
    expect(german('p').text()).toBe('„Fuß“, „Maß“ und „groß“ sind Wörter; „Spaß“ auch.');
    const scripted = load(`<body><p>${garble('It’s — “here”')}</p><script>var s = "${garble('It’s — “here”')}";</script></body>`);
    expect(repairMojibake(scripted)).toBe(4);
    expect(scripted('p').text()).toBe('It’s — “here”');
    expect(scripted('script').text()).toContain('Itâ€™s');
  });

  it('the markdown of a double-encoded page reads as its author wrote it', () => {
    const html = `<html><head><title>t</title></head><body><main><h1>Guide</h1><p>${garble('Google’s AI Overviews now appear for about 16 percent of searches — and they don’t link out much, so the page that is cited is the one that’s read.')}</p></main></body></html>`;
    const md = parsePage(load(html), 'https://blog.example/seo', { text: false, links: false, metadata: false }).markdown;
    expect(md).toContain('Google’s AI Overviews');
    expect(md).toContain('don’t link out');
    expect(md).not.toMatch(/â€|Ã/);
  });
});
