import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { load, type CheerioAPI } from 'cheerio';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../functions/core/content/markdown.js';

// "Survives a round trip": the markdown, rendered back to HTML by a GFM renderer (micromark, the
// parser under remark; installed with @scalar/api-reference), has the structure of the page it
// came from: the same table cells (pipes and all), code with its language and exact text, nested
// lists, images and links.
const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/markdown/${name}.html`, import.meta.url)), 'utf8');

function roundTrip(name: string, url: string): { source: CheerioAPI; rendered: CheerioAPI } {
  const source = load(fixture(name));
  const base = source('base[href]').attr('href');
  const md = htmlToMarkdown(source.html(source('body')), base ? new URL(base, url).href : url);
  return { source, rendered: load(micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true })) };
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const cells = ($: CheerioAPI, table: Parameters<CheerioAPI>[0]) =>
  $(table as never)
    .find('tr')
    .toArray()
    .map((tr) =>
      $(tr)
        .find('th, td')
        .toArray()
        .map((c) => {
          // Block and line breaks read as a space (text() would run the words together).
          $(c).find('p, div, br').after(' ');
          return squash($(c).text());
        }),
    );

describe('markdown round trip through a GFM renderer', () => {
  it('tables: every cell comes back, pipes and line breaks included', () => {
    const { source, rendered } = roundTrip('table-pipes', 'https://ref.example.test/shell/ops');
    const before = source('table').toArray().map((t) => cells(source, t));
    const after = rendered('table').toArray().map((t) => cells(rendered, t));
    expect(after).toEqual(before);
    // The <br> in a cell is still a line break.
    expect(rendered('td br').length).toBe(1);
  });

  it('code: each block comes back with its language and its exact text', () => {
    const { source, rendered } = roundTrip('docs-code', 'https://docs.acme.test/v2/clients.html');
    const before = source('pre').toArray().map((p) => source(p).text().replace(/^\n/, '').replace(/\s+$/, ''));
    const after = rendered('pre > code').toArray().map((c) => ({ lang: rendered(c).attr('class') ?? '', text: rendered(c).text().replace(/\n$/, '') }));
    expect(after.map((a) => a.text)).toEqual(before);
    expect(after.map((a) => a.lang)).toEqual(['language-python', 'language-js', 'language-go', 'language-bash', 'language-markdown', '']);
    expect(rendered('h1, h2').toArray().map((h) => rendered(h).text())).toEqual(['Client libraries', 'Python', 'JavaScript', 'Go', 'Shell', 'Markdown inside code', 'Plain block']);
  });

  it('lists, images and links come back nested, absolute and with their alt text', () => {
    const { rendered } = roundTrip('article-media', 'https://blog.example.test/2026/04/spring-birds');
    expect(rendered('ul > li > ul > li > ol > li').toArray().map((li) => squash(rendered(li).text()))).toEqual(['first seen Monday', 'seen again Friday']);
    expect(rendered('ol[start="3"] > li').length).toBe(2);
    expect(rendered('img').toArray().map((i) => [rendered(i).attr('alt'), rendered(i).attr('src')])).toEqual([
      ['A yellow warbler on a branch', 'https://blog.example.test/media/warbler.jpg'],
      ['Thumbnail', 'https://blog.example.test/media/lazy-thumb.jpg'],
      ['', 'https://blog.example.test/media/gallery.png'],
    ]);
    const hrefs = rendered('a').toArray().map((a) => rendered(a).attr('href'));
    for (const h of hrefs) expect(h).toMatch(/^(https?:|mailto:)/);
    expect(hrefs).toContain('https://en.wikipedia.org/wiki/Warbler_%28disambiguation%29');
    expect(rendered('a').toArray().every((a) => rendered(a).text().trim() || rendered(a).find('img').length)).toBe(true);
  });
});
