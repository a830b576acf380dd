import { describe, expect, it } from 'vitest';
import { ld, page, typed } from './helpers.js';

const offer = (price: string | number, extra: Record<string, unknown> = {}) => ({ '@type': 'Offer', price, priceCurrency: 'EUR', availability: 'https://schema.org/InStock', ...extra });

describe('typed product from JSON-LD', () => {
  it('reads a Product in @graph with a nested Offer, with the JSON path of each value', () => {
    const html = page('<h1>Blue kettle</h1>', ld({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite', name: 'Shop' }, { '@type': 'Product', name: 'Blue kettle', sku: 'BK-1', gtin13: '4006381333931', brand: { '@type': 'Brand', name: 'Acme' }, image: ['/img/k1.jpg', '/img/k2.jpg'], offers: offer('24.5') }] }));

    const p = typed(html).product!;

    expect(p).toMatchObject({ name: 'Blue kettle', price: '24.50', currency: 'EUR', availability: 'InStock', sku: 'BK-1', brand: { name: 'Acme' }, gtin: [{ type: 'gtin13', value: '4006381333931' }] });
    expect(p.main_image).toEqual({ url: 'https://shop.example/img/k1.jpg' });
    expect(p.provenance.price).toEqual({ source: 'json-ld', path: 'ld[0]["@graph"][1].offers.price', confidence: 0.95 });
    expect(p.provenance.sku.source).toBe('json-ld');
    expect(p.warnings).toEqual([]);
  });

  it('reads a top-level array and resolves @id references to offers', () => {
    const html = page('<h1>Mill</h1>', ld([{ '@type': 'Product', '@id': '#p', name: 'Mill', offers: { '@id': '#o' } }, { '@type': 'Offer', '@id': '#o', price: 1299, priceCurrency: 'JPY', availability: 'OutOfStock' }]));
    expect(typed(html).product).toMatchObject({ name: 'Mill', price: '1299.00', currency: 'JPY', availability: 'OutOfStock' });
  });

  it('takes an AggregateOffer whose low and high prices agree', () => {
    const html = page('', ld({ '@type': 'Product', name: 'Lamp', offers: { '@type': 'AggregateOffer', lowPrice: '19.99', highPrice: '19.99', priceCurrency: 'USD', offerCount: 3 } }));
    expect(typed(html).product).toMatchObject({ price: '19.99', currency: 'USD' });
  });

  it('fails closed on an AggregateOffer range: no price, a warning', () => {
    const html = page('', ld({ '@type': 'Product', name: 'Lamp', offers: { '@type': 'AggregateOffer', lowPrice: '19.99', highPrice: '49.99', priceCurrency: 'USD' } }));
    const p = typed(html).product!;
    expect(p.price).toBeUndefined();
    expect(p.warnings.join(' ')).toMatch(/range of prices \(19\.99–49\.99\)/);
  });

  it('fails closed on offers at different prices, and lists them as variants', () => {
    const html = page('', ld({ '@type': 'Product', name: 'Shirt', offers: [offer('20.00', { sku: 'S', name: 'Small' }), offer('25.00', { sku: 'L', name: 'Large' })] }));
    const p = typed(html).product!;
    expect(p.price).toBeUndefined();
    expect(p.warnings.join(' ')).toMatch(/2 offers at different prices/);
    expect(p.variants).toEqual([
      { name: 'Small', sku: 'S', price: '20.00', currency: 'EUR', availability: 'InStock' },
      { name: 'Large', sku: 'L', price: '25.00', currency: 'EUR', availability: 'InStock' },
    ]);
  });

  it('takes the offer whose URL is this page when offers are per variant', () => {
    const html = page('', ld({ '@type': 'Product', name: 'Shirt', offers: [offer('20.00', { url: 'https://shop.example/p/kettle?v=1' }), offer('25.00', { url: 'https://shop.example/p/kettle?v=2' })] }));
    expect(typed(html, ['product'], 'https://shop.example/p/kettle?v=2').product!.price).toBe('25.00');
  });

  it('reads a struck-out list price from a StrikethroughPrice specification as regular_price', () => {
    const html = page('', ld({ '@type': 'Product', name: 'Pan', offers: { '@type': 'Offer', price: '39.00', priceCurrency: 'GBP', priceSpecification: [{ '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/StrikethroughPrice', price: '59.00', priceCurrency: 'GBP' }] } }));
    expect(typed(html).product).toMatchObject({ price: '39.00', regular_price: '59.00', currency: 'GBP' });
  });

  it('picks the page product among several by the h1, never a related one', () => {
    const html = page('<h1>Blue kettle</h1>', ld({ '@graph': [{ '@type': 'Product', name: 'Red kettle', offers: offer('30') }, { '@type': 'Product', name: 'Blue kettle', offers: offer('24.50') }] }));
    expect(typed(html).product).toMatchObject({ name: 'Blue kettle', price: '24.50' });
  });

  it('uses no structured product when several are described and none is the page\'s', () => {
    const html = page('<h1>Kitchen deals</h1>', ld({ '@graph': [{ '@type': 'Product', name: 'Red kettle', offers: offer('30') }, { '@type': 'Product', name: 'Blue kettle', offers: offer('24.50') }] }));
    const r = typed(html, ['product', 'product_list']);
    expect(r.product).toBeNull();
    expect(r.product_list!.products!.map((p) => p.price)).toEqual(['30.00', '24.50']);
  });

  it('ignores products nested in isRelatedTo', () => {
    const html = page('', ld({ '@type': 'Product', name: 'Kettle', offers: offer('24.50'), isRelatedTo: { '@type': 'Product', name: 'Cup', offers: offer('5') } }));
    expect(typed(html).product).toMatchObject({ name: 'Kettle', price: '24.50' });
  });

  it('skips an invalid JSON-LD block with a warning and still reads the valid one', () => {
    const html = page('', `<script type="application/ld+json">{ "@type": "Product", </script>${ld({ '@type': 'Product', name: 'Kettle', offers: offer('9.99') })}`);
    const p = typed(html).product!;
    expect(p.price).toBe('9.99');
    expect(p.warnings).toContain('JSON-LD block 0 is not valid JSON; skipped');
  });

  it('reads BreadcrumbList into breadcrumbs, in position order', () => {
    const html = page('', ld({ '@graph': [{ '@type': 'Product', name: 'Kettle', offers: offer('9.99') }, { '@type': 'BreadcrumbList', itemListElement: [{ '@type': 'ListItem', position: 2, name: 'Kettles', item: '/kettles' }, { '@type': 'ListItem', position: 1, name: 'Home', item: '/' }] }] }));
    expect(typed(html).product!.breadcrumbs).toEqual([{ name: 'Home', url: 'https://shop.example/' }, { name: 'Kettles', url: 'https://shop.example/kettles' }]);
  });
});
