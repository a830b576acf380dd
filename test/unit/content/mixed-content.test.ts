import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

// The score phase's mixed-content signal: text of a container's own beside its block children
// (a story written as bare text and <br>s under a title <p>) is a paragraph inside that
// container, so the container is a candidate, not only its parent (which also holds the sidebar).
describe('mixed content', () => {
  const html = readFileSync(new URL('../../fixtures/content-corpus/news-pt-bare.html', import.meta.url), 'utf8');

  it('a saved page: the story without the archive sidebar beside it or the footer', () => {
    const md = parsePage(load(html), 'https://www.rioclarodosul.example/noticia/escola-laboratorio', { text: false, links: false, metadata: false }).markdown;
    expect(md).toContain('A Escola Municipal Pedro Álvares inaugurou');
    expect(md).toContain('outras quatro escolas');
    expect(md).not.toMatch(/Arquivo de notícias|Dezembro|CNPJ/);
  });
});
