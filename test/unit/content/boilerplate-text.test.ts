import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { boilerplateKind, isSectionHeading } from '../../../functions/core/content/boilerplate-text.js';

// The clean phase's word signal (functions/core/content/boilerplate-text.ts): share prompts,
// read-also teasers, tag lists, legal lines, editor credits and related-story headings inside the
// story container, told by their words in many languages where class names say nothing.

describe('boilerplateKind', () => {
  it.each([
    ['Leia também: Vacinação contra a gripe é prorrogada', 0.8, 'read-also'],
    ['À lire aussi : Ma brioche filante au beurre', 0.7, 'read-also'],
    ['Lesen Sie auch: Neuer Radweg am Ring', 0.7, 'read-also'],
    ['Читайте также: В городе открыли новый парк', 0.8, 'read-also'],
    ['相关阅读：地铁五号线首段预计明年底通车', 0.7, 'read-also'],
    ['Compartilhe: WhatsApp Facebook Twitter', 0.75, 'share'],
    ['Vous avez aimé cet article ? Partagez-le ! Facebook Pinterest', 0.3, 'share'],
    ['分享到：微信 微博 QQ空间', 0.7, 'share'],
    ['Tags: saúde, UBS, prefeitura', 0.6, 'tags'],
    ['Mots-clés : pain, levain, boulangerie', 0.6, 'tags'],
    ['标签：地铁 交通', 0.6, 'tags'],
    ['© 2024 Folha do Vale. Todos os direitos reservados.', 0, 'legal'],
    ['© RIPRODUZIONE RISERVATA', 0, 'legal'],
    ['版权声明：本文为江南日报原创稿件，版权所有，未经授权不得转载。', 0, 'legal'],
    ['ATENÇÃO: Comentários com textos ininteligíveis não serão aprovados pelo moderador.', 0, 'legal'],
    ['责任编辑：王芳', 0, 'editor'],
  ] as const)('%s -> %s', (text, links, kind) => {
    expect(boilerplateKind(text, links)).toBe(kind);
  });

  it.each([
    ['Share prices rose sharply on Monday after the company reported higher profits than expected.', 0],
    ['Tags are small labels that readers use to find related posts, and we explain them below.', 0],
    ['The company updated its privacy policy and terms of use after the ruling, lawyers said.', 0],
    ['Related research from 2019 found the same effect in mice, the authors wrote.', 0],
    ['Leia também o relatório completo, que descreve em detalhes os custos do programa e os prazos de cada fase das obras previstas até 2028 em todos os bairros da cidade, com mapas e tabelas de investimento por região, além de entrevistas com moradores, comerciantes, técnicos da prefeitura e especialistas em mobilidade urbana de três universidades, que analisaram as propostas apresentadas ao longo do último ano.', 0],
  ])('leaves prose alone: %s', (text, links) => {
    expect(boilerplateKind(text, links)).toBeNull();
  });
});

describe('isSectionHeading', () => {
  it.each(['You may also like...', 'Noticias relacionadas', 'Vous aimerez aussi', 'Potrebbe interessarti anche', 'Mais lidas', '関連記事', 'Recommended articles', 'Recommended for you', 'Other Posts You May Enjoy', 'Other related articles...', 'Popular articles', 'You may be interested in the following topics as well'])('%s', (h) => expect(isSectionHeading(h)).toBe(true));
  it.each(['Criticas de los comerciantes', 'Related work in other fields', 'How we tested'])('not %s', (h) => expect(isSectionHeading(h)).toBe(false));
});

describe('a label alone takes the line of links it labels', () => {
  it('drops "Tags" and the links after it, and keeps the story', () => {
    const para = (i: number) => `<p>Paragraph ${i} of the story, long enough to be prose, with commas, details and a few more words to count.</p>`;
    const html = `<body><div class="materia">${para(1)}${para(2)}${para(3)}<div>Tags</div><div><a href="/t/a">alpha</a>, <a href="/t/b">beta</a>, <a href="/t/c">gamma</a>, <a href="/t/d">delta</a></div>${para(4)}</div></body>`;
    const m = parsePage(load(html), 'https://example.com/a', { text: false, links: false, metadata: false }).markdown;
    expect(m).not.toMatch(/Tags|alpha|gamma/);
    expect(m).toContain('Paragraph 4');
  });
});

// Saved pages whose boilerplate sits inside the story with native-language class names (or none):
// without the word signal each of them leaks it into the markdown.
describe('saved pages', () => {
  const page = (f: string) => readFileSync(new URL(`../../fixtures/content-corpus/${f}`, import.meta.url), 'utf8');
  const md = (f: string) => parsePage(load(page(f)), 'https://example.com/a', { text: false, links: false, metadata: false }).markdown;
  it.each([
    ['news-pt.html', ['Todos os direitos reservados', 'ATENÇÃO: Comentários', 'Leia também', 'Compartilhe'], 'avaliar em março'],
    ['blog-fr.html', ['Tous droits réservés', 'À lire aussi', 'Partager', 'Vous aimerez aussi', 'Focaccia'], 'la mie sera collante'],
    ['news-es.html', ['Todos los derechos reservados', 'Etiquetas', 'Noticias relacionadas', 'La línea 3 del metro'], 'por tramos'],
    ['news-zh.html', ['版权声明', '相关阅读', '责任编辑'], '引导乘客'],
    ['news-it.html', ['RIPRODUZIONE RISERVATA', 'Leggi anche', 'Potrebbe interessarti'], 'sportello automatico'],
  ])('%s: the boilerplate is out, the story is whole', (file, out, last) => {
    const m = md(file);
    for (const s of out) expect(m).not.toContain(s);
    expect(m).toContain(last);
  });
});
