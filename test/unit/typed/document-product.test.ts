import { describe, expect, it } from 'vitest';
import { page, typed } from './helpers.js';

const shop = (main: string, lang = 'en', extra = '') => page(`<header><nav><a href="/">Home</a><span class="cart-total">$0.00</span></nav></header>
<main><nav aria-label="breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/kitchen">Kitchen</a></li><li>Kettle</li></ol></nav>
<div class="product"><h1>Blue kettle 1.7 l</h1>${main}</div>
<section class="related-products"><h2>You may also like</h2><div class="card"><a href="/p/cup">Cup</a><span class="price">$5.00</span><button>Add to cart</button></div></section></main>
<footer>Free shipping over $50.00</footer>${extra}`, '', lang);

describe('typed product from the document', () => {
  it('reads the price beside the buy button, the stock state, the SKU in the specification table and the breadcrumbs', () => {
    const html = shop(`<div class="buy-box"><span class="price">$24.50</span><p class="stock">In stock</p><button type="submit">Add to cart</button></div>
      <table class="specs"><tr><th>SKU</th><td>BK-17</td></tr><tr><th>EAN</th><td>4006381333931</td></tr><tr><th>Model number</th><td>KT-2000</td></tr></table>`);

    const p = typed(html).product!;

    expect(p).toMatchObject({ name: 'Blue kettle 1.7 l', price: '24.50', currency: 'USD', currency_raw: '$', availability: 'InStock', sku: 'BK-17', mpn: 'KT-2000', gtin: [{ type: 'ean13', value: '4006381333931' }] });
    expect(p.breadcrumbs).toEqual([{ name: 'Home', url: 'https://shop.example/' }, { name: 'Kitchen', url: 'https://shop.example/kitchen' }, { name: 'Kettle' }]);
    expect(p.provenance.price).toMatchObject({ source: 'document', path: expect.stringContaining('span.price') });
    expect(p.warnings).toEqual([]);
  });

  it('takes a struck-out price as regular_price only, never as the price', () => {
    const html = shop('<div class="price-box"><del>$39.00</del> <span class="price-now">$24.50</span><button>Add to basket</button></div>');
    expect(typed(html).product).toMatchObject({ price: '24.50', regular_price: '39.00' });
  });

  it('fails closed on a price range', () => {
    const html = shop('<div class="buy"><span class="price">$20.00 – $45.00</span><button>Add to cart</button></div>');
    const p = typed(html).product!;
    expect(p.price).toBeUndefined();
    expect(p.warnings.join(' ')).toMatch(/price range/);
  });

  it('fails closed on several different current prices beside the buy button', () => {
    const html = shop('<div class="buy"><span class="price">$20.00</span><span class="price">$45.00</span><button>Add to cart</button></div>');
    const p = typed(html).product!;
    expect(p.price).toBeUndefined();
    expect(p.warnings.join(' ')).toMatch(/2 different prices near the buy button/);
  });

  it('never takes a related product\'s price, shipping thresholds or the cart total', () => {
    const html = shop('<div class="buy"><p>Choose a size</p><button>Add to cart</button></div>');
    const p = typed(html).product!;
    expect(p.price).toBeUndefined();
    expect(p.availability).toBe('InStock');
  });

  it('reads stock wording in German, French, Spanish and Japanese', () => {
    const cases: [string, string, string][] = [
      ['de', '<span class="preis">49,90 €</span><p>Ausverkauft</p>', 'OutOfStock'],
      ['fr', '<span class="prix">1 299,00 €</span><p>En stock</p>', 'InStock'],
      ['es', '<span class="precio">15,00 €</span><p>Agotado</p>', 'OutOfStock'],
      ['ja', '<span class="price">¥1,980</span><p>在庫切れ</p>', 'OutOfStock'],
    ];
    for (const [lang, body, state] of cases) {
      const p = typed(shop(`<div class="buy">${body}</div><table><tr><th>SKU</th><td>X-1</td></tr></table>`, lang)).product!;
      expect(p.availability, lang).toBe(state);
    }
    expect(typed(shop('<div class="buy"><span class="prix">1 299,00 €</span><p>En stock</p></div><table><tr><th>Réf.</th><td>X-1</td></tr></table>', 'fr')).product).toMatchObject({ price: '1299.00', currency: 'EUR', sku: 'X-1' });
    expect(typed(shop('<div class="buy"><span class="price">¥1,980</span><p>在庫切れ</p></div><table><tr><th>SKU</th><td>X-1</td></tr></table>', 'ja')).product).toMatchObject({ price: '1980.00', currency: 'JPY' });
  });

  it('fails closed on conflicting stock words', () => {
    const p = typed(shop('<div class="buy"><span class="price">$9.00</span><p>In stock</p><p>Sold out</p><button disabled>Add to cart</button></div>')).product!;
    expect(p.availability).toBeUndefined();
    expect(p.warnings.join(' ')).toMatch(/availability left out/);
  });

  it('leaves the currency out when "$" cannot be told from the page language', () => {
    const p = typed(shop('<div class="buy"><span class="price">$24.50</span><button>Add to cart</button></div>', 'en-GB')).product!;
    expect(p).toMatchObject({ price: '24.50', currency_raw: '$' });
    expect(p.currency).toBeUndefined();
    expect(p.warnings.join(' ')).toMatch(/currency left out/);
    expect(typed(shop('<div class="buy"><span class="price">$24.50</span><button>Add to cart</button></div>', 'en-CA')).product!.currency).toBe('CAD');
  });

  it('is null on a page that is no product', () => {
    expect(typed(page('<main><h1>About us</h1><p>We sell kettles since 1990.</p></main>')).product).toBeNull();
  });
});
