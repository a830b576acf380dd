import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

// The clean phase's repeated-structure signal: a short line of links whose exact text occurs
// twice or more in the content (a share bar after every picture) is furniture, even inside
// records, which are otherwise kept whole.
const md = (html: string) => parsePage(load(html), 'https://example.com/a', { text: false, links: false, metadata: false }).markdown;

describe('repeated link lines', () => {
  it('drops the share bar repeated in every record of a saved page and keeps every record', () => {
    const m = md(readFileSync(new URL('../../fixtures/content-corpus/gallery-pt.html', import.meta.url), 'utf8'));
    expect(m).not.toMatch(/Whatsapp|Baixar/);
    for (const h of ['Pico do Papagaio', 'Cachoeira Véu de Noiva', 'Vale das Araucárias']) expect(m).toContain(h);
  });

  it('keeps a line of links that occurs once, and prose that repeats a phrase', () => {
    const para = (i: number) => `<p>Paragraph ${i} of the story, long enough to be prose, with commas, details and a few more words to count.</p>`;
    const html = `<body><div class="story">${para(1)}${para(2)}<p>Sources: <a href="/a">Agency report</a> <a href="/b">Court filing</a></p>${para(3)}${para(4)}</div></body>`;
    const m = md(html);
    expect(m).toContain('Agency report');
    expect(m).toContain('Paragraph 4');
  });
});
