import { describe, expect, it } from 'vitest';
import { page, typed } from './helpers.js';

describe('typed product from microdata', () => {
  it('reads itemprops, meta content and a link availability, with CSS paths', () => {
    const html = page(`<div itemscope itemtype="https://schema.org/Product">
      <h1 itemprop="name">Walnut desk</h1><meta itemprop="sku" content="WD-77">
      <div itemprop="brand" itemscope itemtype="https://schema.org/Brand"><span itemprop="name">Oakly</span></div>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
        <span itemprop="price" content="449.00">449,00 €</span><meta itemprop="priceCurrency" content="EUR">
        <link itemprop="availability" href="https://schema.org/PreOrder">
      </div></div>
      <section class="related"><div itemscope itemtype="https://schema.org/Product" itemprop="isRelatedTo"><span itemprop="name">Chair</span></div></section>`, '', 'de');

    const p = typed(html).product!;

    expect(p).toMatchObject({ name: 'Walnut desk', sku: 'WD-77', brand: { name: 'Oakly' }, price: '449.00', currency: 'EUR', availability: 'PreOrder' });
    expect(p.provenance.price).toEqual({ source: 'microdata', path: '[itemtype$="/Product"] [itemprop~="offers"] [itemprop~="price"]', confidence: 0.95 });
  });
});

describe('typed product from RDFa', () => {
  it('reads typeof/property scopes with content attributes', () => {
    const html = page(`<div vocab="https://schema.org/" typeof="Product"><h1 property="name">Trail shoe</h1>
      <span property="sku">TS-9</span>
      <div property="offers" typeof="Offer"><span property="price" content="89.95">$89.95</span><meta property="priceCurrency" content="USD"><link property="availability" href="https://schema.org/InStock"></div></div>`);
    const p = typed(html).product!;
    expect(p).toMatchObject({ name: 'Trail shoe', sku: 'TS-9', price: '89.95', currency: 'USD', availability: 'InStock' });
    expect(p.provenance.sku).toEqual({ source: 'rdfa', path: '[typeof~="Product"] [property~="sku"]', confidence: 0.95 });
  });
});

describe('typed product from meta tags', () => {
  it('reads og:type product and product: price tags; a sale price makes the price the regular one', () => {
    const head = `<meta property="og:type" content="product"><meta property="og:title" content="Linen shirt">
      <meta property="product:price:amount" content="59.00"><meta property="product:sale_price:amount" content="39.00">
      <meta property="product:price:currency" content="GBP"><meta property="product:availability" content="in stock">
      <meta property="product:retailer_item_id" content="LS-3"><meta property="og:image" content="/i/shirt.jpg">`;
    const p = typed(page('<p>Nice shirt.</p>', head)).product!;
    expect(p).toMatchObject({ name: 'Linen shirt', price: '39.00', regular_price: '59.00', currency: 'GBP', availability: 'InStock', sku: 'LS-3', main_image: { url: 'https://shop.example/i/shirt.jpg' } });
    expect(p.provenance.price).toEqual({ source: 'meta', path: 'meta[property="product:sale_price:amount"]', confidence: 0.85 });
  });

  it('a stronger source keeps its value when meta disagrees, and the disagreement is a warning', () => {
    const head = `<meta property="og:type" content="product"><meta property="product:price:amount" content="10.00"><meta property="product:price:currency" content="EUR">
      <script type="application/ld+json">{"@type":"Product","name":"Cup","offers":{"@type":"Offer","price":"12.00","priceCurrency":"EUR"}}</script>`;
    const p = typed(page('', head)).product!;
    expect(p.price).toBe('12.00');
    expect(p.provenance.price.source).toBe('json-ld');
    expect(p.warnings.join(' ')).toMatch(/price: meta says "10.00", json-ld says "12.00"; kept json-ld/);
  });
});

describe('typed product from embedded application state', () => {
  const next = (props: unknown) => `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: props } })}</script>`;

  it('reads the product named like the h1 from __NEXT_DATA__, not the recommendations', () => {
    const html = page(`<h1>Espresso machine</h1>${next({ product: { name: 'Espresso machine', price: { amount: 349.9, currency: 'EUR' }, sku: 'EM-1', availability: 'IN_STOCK' }, recommendations: [{ name: 'Milk jug', price: 19, currency: 'EUR', sku: 'MJ' }] })}`);
    const p = typed(html).product!;
    expect(p).toMatchObject({ name: 'Espresso machine', price: '349.90', currency: 'EUR', sku: 'EM-1', availability: 'InStock' });
    expect(p.provenance.price).toEqual({ source: 'embedded-state', path: '__NEXT_DATA__.props.pageProps.product.price', confidence: 0.75 });
  });

  it('reads a Redux-style window.__INITIAL_STATE__ assignment without evaluating it', () => {
    const html = page(`<h1>Desk lamp</h1><script>window.__INITIAL_STATE__ = {"pdp":{"item":{"title":"Desk lamp","salePrice":"24.99","listPrice":"34.99","currencyCode":"USD","skuId":"DL-2"}}};</script>`);
    expect(typed(html).product).toMatchObject({ price: '24.99', regular_price: '34.99', currency: 'USD', sku: 'DL-2' });
  });

  it('fails closed when the state holds two prices for the page product', () => {
    const html = page(`<h1>Desk lamp</h1><script>window.__APOLLO_STATE__ = {"A":{"name":"Desk lamp","price":24.99,"currency":"USD"},"B":{"name":"Desk lamp","price":29.99,"currency":"USD"}};</script>`);
    const p = typed(html).product!;
    expect(p.price).toBeUndefined();
    expect(p.warnings.join(' ')).toMatch(/price left out: the application state holds 2 values/);
  });
});
