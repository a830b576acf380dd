import type { CorpusPage } from './typed-corpus.js';

// Product pages written for the typed bench, modelled on the markup of real shops (the platforms'
// public themes: Shopify Dawn, WooCommerce Storefront, Magento Luma, and independent shops in
// German, French, Japanese, Polish, Spanish and Swedish), with and without structured data.
// Each truth is what a person reads as this page's own price, currency, availability and SKU;
// null where the page does not say it clearly (a range, variants at several prices).

const chrome = (lang: string, head: string, main: string, extra = '') => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Shop</title>${head}</head><body>
<header class="site-header"><nav><a href="/">Home</a> <a href="/cart" class="cart-link">Cart (1) <span class="cart-total">${lang.startsWith('en') ? '$12.00' : '12,00 €'}</span></a></nav></header>
<main id="MainContent">${main}</main>
<section class="product-recommendations"><h2>You may also like</h2><ul>${[1, 2, 3, 4].map((i) => `<li class="card"><a href="/products/rec-${i}">Recommended ${i}</a><span class="price">${lang.startsWith('en') ? `$${9 + i}.99` : `${9 + i},99 €`}</span><button>Add to cart</button></li>`).join('')}</ul></section>
<footer><p>Free shipping on orders over ${lang.startsWith('en') ? '$50' : '50 €'}</p>${extra}</footer></body></html>`;
const ld = (o: unknown) => `<script type="application/ld+json">${JSON.stringify(o)}</script>`;
const p = (id: string, url: string, html: string, truth: CorpusPage['truth']): CorpusPage => ({ id, set: 'own', url, html, format: 'product', truth });

export function ownPages(): CorpusPage[] {
  return [
    // Shopify Dawn: JSON-LD Product with one Offer, price in the buy form, variant picker.
    p('shopify-jsonld', 'https://dawn.example/products/linen-shirt', chrome('en-US', ld({ '@context': 'http://schema.org/', '@type': 'Product', name: 'Linen Shirt', sku: 'LS-BLU-M', offers: [{ '@type': 'Offer', price: '68.00', priceCurrency: 'USD', availability: 'http://schema.org/InStock', url: 'https://dawn.example/products/linen-shirt?variant=1' }], brand: { '@type': 'Brand', name: 'Dawn' } }),
      `<div class="product__info-container"><h1 class="product__title">Linen Shirt</h1><div class="price"><span class="price-item price-item--regular">$68.00 USD</span></div><form><select name="id"><option>S</option><option>M</option></select><button type="submit" name="add">Add to cart</button></form></div>`),
      { price: '68.00', currency: 'USD', availability: 'InStock', sku: 'LS-BLU-M' }),
    // WooCommerce Storefront: no JSON-LD offer price (plugin off), sale price in <del>/<ins>, SKU in product_meta.
    p('woo-sale-document', 'https://woo.example/product/hoodie/', chrome('en-US', '',
      `<div class="summary entry-summary"><h1 class="product_title entry-title">Hoodie with Zipper</h1><p class="price"><del aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>45.00</bdi></span></del> <ins><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>39.00</bdi></span></ins></p><p class="stock in-stock">12 in stock</p><form class="cart"><button type="submit" class="single_add_to_cart_button button alt">Add to cart</button></form><div class="product_meta"><span class="sku_wrapper">SKU: <span class="sku">woo-hoodie-zip</span></span></div></div>`),
      { price: '39.00', currency: 'USD', availability: 'InStock', sku: 'woo-hoodie-zip' }),
    // Magento Luma: microdata Product, data-price-amount, "Out of stock".
    p('magento-microdata-oos', 'https://luma.example/argus-all-weather-tank.html', chrome('en-US', '',
      `<div class="product-info-main" itemscope itemtype="http://schema.org/Product"><h1 class="page-title"><span itemprop="name">Argus All-Weather Tank</span></h1><div class="product-info-price"><div class="price-box" itemprop="offers" itemscope itemtype="http://schema.org/Offer"><span class="price-wrapper" data-price-amount="22"><span class="price">$22.00</span></span><meta itemprop="price" content="22"><meta itemprop="priceCurrency" content="USD"></div><div class="product-info-stock-sku"><div class="stock unavailable"><span>Out of stock</span></div><div class="product attribute sku"><strong class="type">SKU</strong> <div class="value" itemprop="sku">MT07</div></div></div></div></div>`),
      { price: '22.00', currency: 'USD', availability: 'OutOfStock', sku: 'MT07' }),
    // German shop without structured data: price with comma, "inkl. MwSt.", "Sofort lieferbar", Art.-Nr.
    p('de-document', 'https://kaffee.example/muehle-k2', chrome('de-DE', '',
      `<div class="produkt"><h1>Kaffeemühle K2 Edelstahl</h1><div class="preisbox"><span class="preis">129,90&nbsp;€</span><small>inkl. MwSt., zzgl. Versandkosten 4,95 €</small></div><p class="lieferstatus">Sofort lieferbar</p><button class="btn btn-primary">In den Warenkorb</button><table class="details"><tr><th>Art.-Nr.</th><td>K2-ES-01</td></tr><tr><th>EAN</th><td>4260123456789</td></tr><tr><th>Gewicht</th><td>1,2 kg</td></tr></table></div>`),
      { price: '129.90', currency: 'EUR', availability: 'InStock', sku: 'K2-ES-01' }),
    // French shop without structured data: struck price, "Rupture de stock", Référence.
    p('fr-document-oos', 'https://maison.example/lampe-atelier', chrome('fr-FR', '',
      `<section class="fiche-produit"><h1>Lampe d'atelier laiton</h1><div class="prix"><span class="prix-barre"><s>89,00 €</s></span> <span class="prix-actuel">69,00 €</span></div><p class="dispo">Rupture de stock</p><button disabled class="btn">Ajouter au panier</button><ul class="caracteristiques"><li>Référence : LAT-450</li><li>Matière : laiton</li></ul></section>`),
      { price: '69.00', currency: 'EUR', availability: 'OutOfStock', sku: 'LAT-450' }),
    // Japanese shop: ¥ with lang ja, 在庫あり, 商品番号.
    p('ja-document', 'https://zakka.example/item/12345', chrome('ja', '',
      `<div class="item-detail"><h1>南部鉄器 急須 0.65L</h1><p class="item-price"><span class="price">¥8,800</span><span class="tax">(税込)</span></p><p class="stock">在庫あり</p><button class="cart-btn">カートに入れる</button><dl class="spec"><dt>商品番号</dt><dd>NB-065</dd><dt>容量</dt><dd>0.65L</dd></dl></div>`),
      { price: '8800.00', currency: 'JPY', availability: 'InStock', sku: 'NB-065' }),
    // Polish shop with JSON-LD in @graph and a different-looking document price (promo): JSON-LD wins.
    p('pl-jsonld-graph', 'https://sklep.example/produkt/czajnik', chrome('pl-PL', ld({ '@context': 'https://schema.org', '@graph': [{ '@type': 'Organization', name: 'Sklep' }, { '@type': 'BreadcrumbList', itemListElement: [{ '@type': 'ListItem', position: 1, name: 'AGD', item: 'https://sklep.example/agd' }] }, { '@type': 'Product', name: 'Czajnik elektryczny 1,7 l', sku: 'CZ-17', gtin13: '5901234123457', offers: { '@type': 'Offer', price: 149.99, priceCurrency: 'PLN', availability: 'https://schema.org/InStock' } }] }),
      `<div class="product-card"><h1>Czajnik elektryczny 1,7 l</h1><div class="price"><span>149,99 zł</span></div><p>Dostępny</p><button>Dodaj do koszyka</button></div>`),
      { price: '149.99', currency: 'PLN', availability: 'InStock', sku: 'CZ-17' }),
    // Next.js storefront: no JSON-LD, product in __NEXT_DATA__, price rendered client-side.
    p('nextjs-state', 'https://next.example/p/trail-runner', chrome('en-US', '',
      `<div id="__next"><div class="pdp"><h1 class="pdp-title">Trail Runner 3</h1><div class="pdp-price" data-testid="price"></div></div></div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { product: { id: 'tr3', name: 'Trail Runner 3', sku: 'TR3-42', price: { value: 129.95, currency: 'USD' }, inStock: true }, related: [{ name: 'Trail Socks', price: { value: 14, currency: 'USD' }, sku: 'TS' }] } } })}</script>`),
      { price: '129.95', currency: 'USD', availability: 'InStock', sku: 'TR3-42' }),
    // Variants at several prices, no default marked: the price is not clear (null), availability is.
    p('variants-range', 'https://shop.example/products/poster', chrome('en-US', ld({ '@type': 'Product', name: 'Art Poster', offers: { '@type': 'AggregateOffer', lowPrice: '19.00', highPrice: '49.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' } }),
      `<div class="product"><h1>Art Poster</h1><p class="price">$19.00 – $49.00</p><button>Add to cart</button></div>`),
      { price: null, currency: null, availability: 'InStock', sku: null }),
    // Spanish shop without structured data, "Agotado", "Precio: 24,95 €", Código.
    p('es-document-oos', 'https://tienda.example/taza-ceramica', chrome('es-ES', '',
      `<article class="producto"><h1>Taza de cerámica artesanal</h1><p class="precio">Precio: 24,95 €</p><p class="disponibilidad">Agotado</p><p class="codigo">Código: TZ-ART-3</p></article>`),
      { price: '24.95', currency: 'EUR', availability: 'OutOfStock', sku: 'TZ-ART-3' }),
    // Swedish shop with og product tags and a shared "kr" symbol decided by the language.
    p('sv-meta', 'https://butik.example/produkt/filt', chrome('sv-SE', `<meta property="og:type" content="product"><meta property="og:title" content="Ullfilt grå"><meta property="product:price:amount" content="799.00"><meta property="product:price:currency" content="SEK"><meta property="product:availability" content="instock">`,
      `<div class="produkt"><h1>Ullfilt grå</h1><span class="pris">799 kr</span><button>Lägg i varukorgen</button><p>Artikelnummer: UF-GR-1</p></div>`),
      { price: '799.00', currency: 'SEK', availability: 'InStock', sku: 'UF-GR-1' }),
    // An English shop on a UK site showing "$": the currency cannot be told (null), the price can.
    p('gb-dollar', 'https://import.example/item/radio', chrome('en-GB', '',
      `<div class="item"><h1>Vintage radio (import)</h1><div class="buy-box"><span class="price">$149.00</span><p>Only 2 left</p><button>Add to basket</button></div><p>Item number: VR-1962</p></div>`),
      { price: '149.00', currency: null, availability: 'LimitedAvailability', sku: 'VR-1962' }),
  ];
}
