import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { isSponsoredCard } from '../../../functions/core/content/sponsored.js';
import type { DomNode } from '../../../functions/core/content/dom.js';

// A results page's paid slots, written like the results around them: the results are the page's
// content, the slots it sold between them are not.
const job = (title: string, extra = '') => `<li class="result"><div class="card"><div class="beacon">
  <h2><a href="/job/${title.length}">${title}</a></h2>
  <div class="company">Northwind Analytics · Austin, TX</div>
  <div class="salary">$140,000 - $170,000 a year</div>
  <div class="snippet"><ul><li>Own the pipelines that move ${title.toLowerCase()} data between our warehouses every night.</li></ul></div>
  ${extra}</div></div></li>`;
const jobsPage = (cards: string) => `<html><head><title>Data engineer jobs in Austin</title></head><body>
<header><nav><a href="/">Home</a> <a href="/jobs">Jobs</a></nav></header>
<main><h1>Senior data engineer jobs in Austin, TX</h1><ul class="results">${cards}</ul></main>
<footer><a href="/about">About</a></footer></body></html>`;
const md = (html: string, url = 'https://jobs.example/q-data-engineer-l-austin') => parsePage(load(html), url, { text: false, links: false, metadata: false }).markdown;
const first = (html: string) => load(html)('body > *').get(0)!.children!.find((c) => c.type === 'tag')!;

describe('sponsored cards', () => {
  it('a result labelled "Sponsored" among the results is left out; the results stay', () => {
    const out = md(jobsPage([job('Staff Data Engineer'), job('Lead Data Platform Engineer', '<span class="tag">Sponsored</span>'), job('Senior Analytics Engineer'), job('Data Engineer II')].join('')));
    expect(out).not.toContain('Lead Data Platform Engineer');
    expect(out).toContain('Staff Data Engineer');
    expect(out).toContain('Senior Analytics Engineer');
    expect(out).toContain('Data Engineer II');
  });

  it('labels in other languages, with the sponsor named, and markers the site writes for its scripts', () => {
    const story = (t: string, label = '') => `<article class="c">${label}<h2><a href="/${t.length}">${t}</a></h2><p>Una crónica sobre ${t.toLowerCase()} y lo que cambia para los lectores.</p></article>`;
    const page = `<html><body><main><h1>Tecnología</h1><section>${[
      story('La inteligencia artificial llega a las aulas'),
      story('Cinco gestos para ahorrar energía en casa', '<div class="c_sp">Contenido patrocinado por Voltaria Energía</div>'),
      story('El móvil que se repara en casa'),
      story('Los centros de datos y el agua'),
    ].join('')}</section></main></body></html>`;
    const out = md(page, 'https://diario.example/tecnologia/');
    expect(out).not.toContain('Cinco gestos');
    expect(out).toContain('El móvil que se repara en casa');
    expect(isSponsoredCard(first('<div><div data-sponsored="true"><a href="/p/1">Air fryer</a> $49</div></div>'))).toBe(true);
    expect(isSponsoredCard(first('<ul><li>Gesponsert</li></ul>'))).toBe(false);
    const item = (t: string, label = '') => `<li class="item"><a href="/${t.length}">${t}</a><span class="price">$ 8.208</span>${label}</li>`;
    const results = first(`<div><ol>${[item('Auriculares Bolt Air'), item('Auriculares Vortex X9', '<span class="ads-promotions">Promocionado</span>'), item('Auriculares Nube Pro')].join('')}</ol></div>`);
    const items = ((results as DomNode).children ?? []).filter((c: DomNode) => c.type === 'tag');
    expect(items.map((c: DomNode) => isSponsoredCard(c))).toEqual([false, true, false]);
  });

  it('a row of tiles keeps its other tiles: only the labelled tile goes', () => {
    const tile = (t: string, label = '') => `<div class="tile"><a href="/${t.length}">${t}</a><span class="price">$${t.length}.00</span>${label}</div>`;
    const row = (tiles: string[]) => `<div class="row">${tiles.join('')}</div>`;
    const out = md(jobsPage(`<li>${[
      row([tile('Walnut desk lamp'), tile('Brass floor lamp', '<small>Sponsored</small>'), tile('Paper pendant shade')]),
      row([tile('Linen lamp shade'), tile('Ceramic table lamp'), tile('Rattan wall sconce')]),
      row([tile('Glass globe pendant'), tile('Marble base lamp'), tile('Oak tripod lamp')]),
    ].join('')}</li>`), 'https://shop.example/collections/lamps');
    expect(out).not.toContain('Brass floor lamp');
    for (const t of ['Walnut desk lamp', 'Paper pendant shade', 'Linen lamp shade', 'Oak tripod lamp']) expect(out).toContain(t);
  });

  it('a story that says it is sponsored is not a card: a label over the page or one block stays', () => {
    const para = (n: number) => `<p>Paragraph ${n} of a paid feature: the brand explains how its heat pumps cut winter bills, with figures from three households and an engineer's notes.</p>`;
    const page = `<html><body><main><article><span>Sponsored</span><h1>Warm homes for less</h1>${[1, 2, 3, 4].map(para).join('')}</article></main></body></html>`;
    const out = md(page, 'https://news.example/2024/03/warm-homes');
    expect(out).toContain('Paragraph 1 of a paid feature');
    expect(out).toContain('Paragraph 4 of a paid feature');
  });

  it('a Japanese results row marked "PR" inside its title link is a paid slot; the rows around it stay', () => {
    const row = (name: string, pr = false) => `<tr class="searchresultitem"><td class="image"><a href="/item/${name.length}/"><img src="/t/${name.length}.jpg" alt=""></a></td>
      <td class="description"><h2 class="title"><a href="/item/${name.length}/">${pr ? '<span class="prLabel">PR</span>' : ''}${name}</a></h2><div class="merchant"><a href="/shop/${name.length}/">ショップ${name.length}</a></div></td>
      <td class="price-col"><div class="price"><span>1,980</span><span>円</span></div><div class="shipping">送料無料</div></td></tr>`;
    const rows = [row('常滑焼 急須 玉光窯 平型 300ml'), row('ガラス製 ティーポット 耐熱 600ml 茶こし付き', true), row('南部鉄器 急須 鉄瓶兼用 0.65L'), row('萬古焼 急須 黒泥 250ml'), row('有田焼 急須 染付 唐草')].join('');
    const html = `<html><head><title>「急須」の検索結果</title></head><body><header><nav><a href="/">トップ</a></nav></header><main><h1>「急須」の検索結果</h1>
      <table class="searchresults" summary="検索結果一覧"><thead><tr><th>画像</th><th>商品名・ショップ</th><th>価格・送料</th></tr></thead><tbody>${rows}</tbody></table></main></body></html>`;
    const out = md(html, 'https://search.rakuichi.example/search/mall/%E6%80%A5%E9%A0%88/');
    expect(out).toContain('常滑焼 急須 玉光窯');
    expect(out).toContain('有田焼 急須 染付 唐草');
    expect(out).not.toContain('ガラス製 ティーポット');
  });

  it('a result whose "Sponsored" label sits deep in its card (a span in a link in a row, three wrappers down) is a paid slot', () => {
    const card = (name: string, sponsored = false) => `<div data-component-type="s-search-result" class="s-result-item"><div class="sg-col-inner"><div class="puis-card-container"><div class="a-section">
      ${sponsored ? '<div class="a-row"><a href="javascript:void(0)" role="button" class="puis-sponsored-label-text"><span class="a-color-secondary">Sponsored</span><span class="icon"></span></a></div>' : ''}
      <h2><a href="/dp/${name.length}"><span>${name}</span></a></h2><span class="a-price"><span class="a-offscreen">$24.99</span></span></div></div></div></div>`;
    const html = `<html><head><title>camping lantern</title></head><body><header><nav><a href="/">Home</a></nav></header><main><h1>Results</h1><div class="s-main-slot">
      ${[card('Brightfox LED Camping Lantern 2-Pack', true), card('Lumenwood Rechargeable Lantern 1000 lm'), card('TrailGlow Collapsible Lantern'), card('Northpeak Solar Lantern with USB'), card('Campfire Classic Metal Lantern')].join('')}</div></main></body></html>`;
    const out = md(html, 'https://shop.example/s?k=camping+lantern');
    expect(out).toContain('Lumenwood Rechargeable Lantern');
    expect(out).not.toContain('Brightfox');
  });

  it('a tile labelled "Реклама" beside a hidden note of who paid is a paid slot', () => {
    const tile = (name: string, ad = false) => `<div class="tile-root"><a href="/product/${name.length}/"><img src="/t${name.length}.jpg" alt=""></a><div class="tile-body">${ad ? '<div class="ad-label" data-widget="advertLabel">Реклама<span class="ad-label__info" hidden>Рекламодатель: ООО «Термолайн», ИНН 7701234567</span></div>' : ''}<a href="/product/${name.length}/"><span>${name}</span></a><span class="price">1 290 ₽</span></div></div>`;
    const html = `<html><head><title>Термокружки</title></head><body><header><nav><a href="/">Главная</a></nav></header><main><h1>Термокружки</h1><div class="grid">${[tile('Термокружка Thermoline Classic 450 мл', true), tile('Термокружка Arctica 500 мл'), tile('Термокружка Stanvik 350 мл'), tile('Термокружка Polar 400 мл'), tile('Термокружка Bergen 600 мл')].join('')}</div></main></body></html>`;
    const out = md(html, 'https://shop.example/category/termokruzhki/');
    expect(out).toContain('Arctica 500 мл');
    expect(out).not.toContain('Thermoline Classic');
  });
});
