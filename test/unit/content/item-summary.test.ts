import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { isNonContent } from '../../../functions/core/content/prepare.js';
import type { DomNode } from '../../../functions/core/content/dom.js';

// An item page's summary (name, price, short description) beside its buy box, and its tab panels
// hidden by a store's own tab script: content, however much the buy box looks like a form.
const md = (html: string, url: string) => parsePage(load(html), url, { text: false, links: false, metadata: false }).markdown;
const page = (body: string, ld = '') =>
  `<!doctype html><html><head><title>Dubbele fietstas</title>${ld}</head><body><header><nav><a href="/">Home</a> <a href="/tassen">Tassen</a></nav></header>${body}<footer><p>© Zadelpost <a href="/privacy">Privacy</a></p></footer></body></html>`;
const productLd = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Dubbele fietstas","offers":{"@type":"Offer","price":"89.95","priceCurrency":"EUR"}}</script>';
const description = `<h2>Productomschrijving</h2><p>Wie elke dag naar het werk fietst, weet hoe snel een laptop of een setje reservekleding nat wordt. De dubbele fietstas is gemaakt van PVC-vrij polyester met een TPU-coating en gelaste naden, zodat er bij een plensbui geen druppel binnenkomt.</p>
  <p>Iedere tas heeft een rolsluiting met klikgesp en een losse binnenhoes voor een laptop tot 15 inch. Aan de buitenkant zit een ritsvak voor je sleutels en een telefoon, met één hand bereikbaar.</p>`;

describe("an item page's summary and panels", () => {
  // A guard: this page reaches the item's sections, not the cleaner; the cleaner's title rule
  // (clean.ts holdsTitle) is what the buy-form test below needs, and fails without.
  it("an item's summary beside its buy box and seller links: name and price stay, the buy box's controls go", () => {
    const summary = `<div class="_9c44d_3TzvE m7er_k4"><h1>Lampa warsztatowa LED 20 W Voltaro WL-20</h1>
      <div class="rating"><a href="#opinie">4,82</a> <a href="#opinie">214 ocen</a></div>
      <div class="price"><div>149,00 zł</div><div>Najniższa cena z 30 dni przed obniżką: 189,00 zł</div></div>
      <div class="variants"><a href="/o/wl-10">WL-10 (10 W)</a> <a href="/o/wl-20">WL-20 (20 W)</a> <a href="/o/wl-30">WL-30 (30 W)</a></div>
      <div class="buybox"><label for="q">liczba sztuk</label><input id="q" type="number" value="1"><button type="button">Dodaj do koszyka</button><button type="button">Kup teraz</button></div>
      <div class="seller"><a href="/u/narzedziownia">NARZEDZIOWNIA_KRK</a> <a href="/u/narzedziownia/oferty">Inne przedmioty sprzedającego</a> <button type="button">Zapytaj sprzedającego</button></div></div>`;
    const html = page(`<main><div class="header"><div class="gallery"><img src="/wl-20.jpg" alt="Lampa WL-20"></div>${summary}</div>
      <section><h2>Opis</h2><p>Voltaro WL-20 to przenośny naświetlacz dla mechaników, elektryków i majsterkowiczów. Panel COB o mocy 20 W daje równomierne, białe światło bez migotania, które nie męczy wzroku nawet podczas kilkugodzinnej pracy.</p>
      <p>Podstawa z magnesem neodymowym utrzyma lampę na karoserii, regale lub drzwiach szafki elektrycznej. Uchwyt obraca się o 360 stopni, a głowica odchyla się o 180 stopni.</p>
      <p>Cztery tryby świecenia: 25%, 50%, 100% oraz czerwone światło ostrzegawcze. Wskaźnik naładowania akumulatora z czterema diodami pokazuje, ile pracy zostało do końca zmiany.</p>
      <p>Na lampę udzielamy 24 miesięcy gwarancji. Serwis znajduje się w Krakowie, a naprawy gwarancyjne realizujemy zwykle w ciągu pięciu dni roboczych od otrzymania przesyłki.</p></section></main>`, productLd);
    const out = md(html, 'https://targowisko.example/oferta/lampa-warsztatowa-led-20-w-15873204417');
    expect(out).toContain('# Lampa warsztatowa LED 20 W Voltaro WL-20');
    expect(out).toContain('149,00 zł');
    expect(out).toContain('Najniższa cena z 30 dni');
    expect(out).toContain('przenośny naświetlacz');
    expect(out).not.toContain('Dodaj do koszyka');
  });

  it("a buy form that shows the item's price and short description (Lightspeed's) is the item's summary, not a small form", () => {
    const form = `<form action="/cart/add/281507733/" method="post"><div class="product-configure"><label for="v">Kies een variant:</label>
      <select id="v" name="variant"><option>Zwart - € 89,95</option><option>Olijfgroen - € 89,95</option></select></div>
      <div class="product-price"><span class="old-price">€109,95</span> <span class="price">€89,95</span> <small>Incl. btw</small></div>
      <div class="product-description-short"><p>Twee waterdichte tassen van elk 16 liter, verbonden met een verstelbare middenflap.</p></div>
      <input type="text" name="quantity" value="1"><a href="#" class="btn btn-cart">Toevoegen aan winkelwagen</a></form>`;
    const html = page(`<div class="product"><div class="images"><img src="/tas.jpg" alt="Dubbele fietstas"></div><div class="product-info"><h1>Dubbele fietstas Waterdicht 32 liter</h1>${form}</div>
      <div class="product-tabs"><div class="tabsPages"><div class="page info active">${description}</div></div></div></div>`, productLd);
    const out = md(html, 'https://www.zadelpost.example/trapwerk-dubbele-fietstas-waterdicht-32-liter.html');
    expect(out).toContain('€89,95');
    expect(out).toContain('verbonden met een verstelbare middenflap');
    expect(out).toContain('losse binnenhoes');
  });

  it("a sign-up form beside an item, without a price, is still a small form", () => {
    const form = `<form action="/newsletter" method="post"><p>Schrijf je in voor onze nieuwsbrief en mis geen aanbieding.</p><label for="e">E-mail</label><input id="e" type="email"><button>Inschrijven</button></form>`;
    const html = page(`<div class="product"><div class="product-info"><h1>Dubbele fietstas Waterdicht 32 liter</h1><div class="product-price">€89,95</div>${form}</div>
      <div class="product-content">${description}</div></div>`, productLd);
    const out = md(html, 'https://www.zadelpost.example/trapwerk-dubbele-fietstas-waterdicht-32-liter.html');
    expect(out).toContain('€89,95');
    expect(out).not.toContain('nieuwsbrief');
  });

  it("panels a store's tab script hides, in a block named for tabs (div.tabsPages of div.page): every panel but the reviews", () => {
    const html = page(`<div class="product"><h1>Dubbele fietstas Waterdicht 32 liter</h1><div class="product-price">€89,95</div>
      <div class="product-tabs"><ul class="tabs"><li class="active"><a rel="info" href="#">Productomschrijving</a></li><li><a rel="specs" href="#">Specificaties</a></li><li><a rel="shipping" href="#">Verzenden</a></li><li><a rel="reviews" href="#">Reviews (38)</a></li></ul>
      <div class="tabsPages"><div class="page info active">${description}</div>
      <div class="page specs" style="display:none;"><h2>Specificaties</h2><table class="details"><tr><td>Materiaal</td><td>Polyester 600D met TPU-coating</td></tr><tr><td>Maximale belasting</td><td>12 kg per tas</td></tr></table></div>
      <div class="page shipping" style="display:none;"><h2>Verzenden en retourneren</h2><p>Bestellingen boven de €50 verzenden we gratis met PostNL of DHL; daaronder betaal je €4,95 verzendkosten.</p></div>
      <div class="page reviews" style="display:none;"><h2>Reviews</h2><div class="review"><strong>Eindelijk droge spullen</strong> <span>door Femke</span><p>Twee weken lang elke dag door de regen naar kantoor en mijn laptop is nog geen keer nat geworden.</p></div><div class="review"><strong>Past prima</strong> <span>door Joost</span><p>Op de brede drager van mijn e-bike moest ik de middenflap wat verder openzetten.</p></div></div>
      </div></div></div>`, productLd);
    const out = md(html, 'https://www.zadelpost.example/trapwerk-dubbele-fietstas-waterdicht-32-liter.html');
    expect(out).toContain('12 kg per tas');
    expect(out).toContain('€4,95 verzendkosten');
    expect(out).not.toContain('Eindelijk droge spullen');
  });

  it("a page's dialogs are no tab panels because its body is named for a mobile tab bar", () => {
    const html = page(`<div class="product"><h1>Dubbele fietstas Waterdicht 32 liter</h1><div class="product-price">€89,95</div><div class="product-content">${description}</div></div>
      <div class="modal user-login" style="display:none"><h3>Inloggen</h3><p>Nog geen account? Maak er gratis een aan en bestel sneller bij je volgende bezoek.</p></div>`, productLd).replace('<body>', '<body class="page-has-mobile-tabs">');
    const out = md(html, 'https://www.zadelpost.example/trapwerk-dubbele-fietstas-waterdicht-32-liter.html');
    expect(out).toContain('losse binnenhoes');
    expect(out).not.toContain('Nog geen account');
  });

  it('an item\'s "other offers" and its ratings section in Polish are not the item\'s content', () => {
    const offers = `<section><h2>Inne oferty tego produktu</h2><ul><li><a href="/u/toolbox">TOOLBOX_PL</a> <span>152,49 zł</span></li><li><a href="/u/elektro">elektrohurt24</a> <span>155,00 zł</span></li></ul><a href="/produkt/wl-20/oferty">Porównaj wszystkie 11 ofert</a></section>`;
    const review = (who: string, text: string) => `<li class="review"><div><span>${who}</span> · <time datetime="2024-03-11">11 marca 2024</time></div><p>${text}</p><button type="button">Pomocna (12)</button></li>`;
    const reviews = `<section><h2>Oceny produktu</h2><div>4,82 na podstawie 214 ocen</div><ul>${review('Paweł', 'Używam przy naprawach w kanale, magnes trzyma nawet do zabrudzonego progu.')}${review('Marta_K', 'Światło bardzo jasne, ale hak mógłby być solidniejszy.')}${review('Jan', 'Akumulator wystarcza na cały dzień pracy w garażu.')}</ul></section>`;
    const html = page(`<main><h1>Lampa warsztatowa LED 20 W Voltaro WL-20</h1><div class="price">149,00 zł</div>
      <section><h2>Opis</h2><p>Voltaro WL-20 to przenośny naświetlacz dla mechaników, elektryków i majsterkowiczów. Panel COB o mocy 20 W daje równomierne, białe światło bez migotania, które nie męczy wzroku.</p>
      <p>Podstawa z magnesem neodymowym utrzyma lampę na karoserii, regale lub drzwiach szafki elektrycznej. Uchwyt obraca się o 360 stopni, a głowica odchyla się o 180 stopni.</p></section>${offers}${reviews}</main>`, productLd);
    const out = md(html, 'https://targowisko.example/oferta/lampa-warsztatowa-led-20-w-15873204417');
    expect(out).toContain('przenośny naświetlacz');
    expect(out).not.toContain('Porównaj wszystkie');
    expect(out).not.toContain('zabrudzonego progu');
  });

  it("a grid's closed sort menu (role=menu under its toggle) is not a disclosure's content; 'Recently viewed and more' is a store's rail", () => {
    const card = (i: number) => `<li><div class="listing-card"><a href="/listing/${1000 + i}"><img src="/il/${i}.jpg" alt=""><h3>Leather journal number ${i}</h3><p class="lc-price">$${20 + i}.00</p></a></div></li>`;
    const html = page(`<main><h1>Leather Journal</h1><p>Hand-bound journals, travelers notebook covers and sketchbooks from independent bookbinders.</p>
      <div class="wt-menu"><button class="wt-menu__trigger" aria-haspopup="true" aria-expanded="false">Sort by: <span>Relevancy</span></button><div class="wt-menu__body" role="menu" hidden><a role="menuitemradio" href="?order=most_relevant">Relevancy</a><a role="menuitemradio" href="?order=price_asc">Lowest Price</a><a role="menuitemradio" href="?order=price_desc">Highest Price</a></div></div>
      <ol class="grid">${Array.from({ length: 10 }, (_, i) => card(i)).join('')}</ol>
      <div><h2>Recently viewed and more</h2><ul><li><a href="/listing/77"><h3>Brass Fountain Pen with Converter</h3><p>$24.00</p></a></li><li><a href="/listing/78"><h3>Walnut Pen Tray</h3><p>$18.00</p></a></li></ul></div></main>`);
    const out = md(html, 'https://market.example/market/leather_journal');
    expect(out).toContain('Leather journal number 9');
    expect(out).not.toContain('Lowest Price');
    expect(out).not.toContain('Brass Fountain Pen');
    // The closed menu itself, judged where hidden panels are content: a menu, not a panel.
    const $ = load('<div class="wt-menu"><button aria-haspopup="true" aria-expanded="false">Sort by: <span>Relevancy</span></button><div class="wt-menu__body" role="menu" hidden><a role="menuitemradio" href="?order=price_asc">Lowest Price</a></div></div>');
    expect(isNonContent($('[role=menu]').get(0) as unknown as DomNode, false, { classRules: false, hiddenPanels: true })).toBe(true);
  });

  it("an item's collapsed sections: an attribute table toggled by an icon button (aria-controls), the rest of a spec list behind 'See all' (specifications__more), spec groups hidden like the first one shown", () => {
    const row = (k: string, v: string) => `<tr><th>${k}</th><td>${v}</td></tr>`;
    const html = page(`<main><div class="product-info"><h1>Gooseneck Kettle 0.9 L</h1><div class="price">$79.00</div></div>
      <section><h2>Description</h2>${description}</section>
      <section x-data="{ open: false }"><div class="flex"><h2>More Information</h2><button type="button" @click="open = !open" aria-expanded="false" aria-controls="product-attribute-specs" aria-label="Toggle More Information"><svg aria-hidden="true"></svg></button></div>
      <div id="product-attribute-specs" x-show="open" x-cloak style="display: none"><table>${row('Capacity', '0.9 liters (30 fl oz)')}${row('Material', '304 stainless steel')}</table></div></section>
      <section class="specifications"><h2>Specifications</h2><table>${row('Height', '34.5 in')}${row('Width', '36 in')}</table>
      <div class="specifications__more" hidden><h3>Details</h3><table>${row('Cabinet Material', 'Solid Wood and Moisture-Resistant MDF')}${row('Faucet Holes', 'Widespread 8 in. centers')}</table></div><button type="button">See All Specifications</button></section>
      <div class="specs"><div class="_3k-BhJ"><div class="flxcaE">General</div><table>${row('Model', 'MG-750')}${row('Colour', 'White')}</table></div>
      <div class="_3k-BhJ _2dcPRB" style="display:none"><div class="flxcaE">Power Features</div><table>${row('Power Requirement', 'AC 230 V, 50 Hz')}</table></div>
      <div class="_3k-BhJ _2dcPRB" style="display:none"><div class="flxcaE">Dimensions</div><table>${row('Size', '21 cm x 34 cm x 24 cm')}</table></div><button>Read More</button></div></main>`, productLd);
    const out = md(html, 'https://shop.example/products/gooseneck-kettle');
    for (const t of ['0.9 liters (30 fl oz)', 'Solid Wood and Moisture-Resistant MDF', 'AC 230 V, 50 Hz', '21 cm x 34 cm x 24 cm']) expect(out, t).toContain(t);
  });

  it("a site's menu toggle does not make its hidden menu a panel; a hidden nav 'More' list is no collapsed section", () => {
    const html = page(`<main><div class="product-info"><h1>Gooseneck Kettle 0.9 L</h1><div class="price">$79.00</div></div><section><h2>Description</h2>${description}</section>
      <div class="site-tools"><button type="button" aria-expanded="false" aria-controls="account-drawer" aria-label="Open account menu"></button><div id="account-drawer" style="display:none"><p>Sign in to see your orders, returns and saved addresses in one place.</p></div></div>
      <ul class="links"><li>Help</li><li class="nav-more" hidden><p>Gift cards, store finder and our careers page, all in one place for you.</p></li></ul></main>`, productLd);
    const out = md(html, 'https://shop.example/products/gooseneck-kettle');
    expect(out).toContain('losse binnenhoes');
    expect(out).not.toContain('saved addresses');
    expect(out).not.toContain('store finder');
  });

  it("reviews titled by a plain block (a marketplace's hashed div 'Ratings & Reviews'), or one review in a block named for reviews, are left out; a game's 'Reviews' of critics' quotes stays", () => {
    const review = (t: string) => `<div class="col _2wzgFH"><div class="row"><div class="_3LWZlK">5</div><p class="_2-N8zT">Worth every penny</p></div><div class="t-ZTKy">${t}</div><div class="row"><p>Ananya K.</p><p><span>Certified Buyer, Pune</span></p></div></div>`;
    const html = page(`<main><div class="product-info"><h1>Voltaq AirBlend 750 W Mixer Grinder</h1><div class="price">₹3,299</div></div><section><h2>Description</h2>${description}</section>
      <div class="_1AtVbE"><div class="col JOpGWq"><div class="_3UAT2v _16PBlm">Ratings &amp; Reviews</div>${review('Batter comes out super smooth and the motor does not heat up.')}${review('Works fine but it is quite loud on the highest speed.')}</div></div>
      <section class="container"><div class="yv-reviews-container"><h2 class="yv-reviews-title">Avaliações dos clientes</h2><div class="yv-review-item"><p>Troquei minha máquina de cápsulas por ela e não volto atrás.</p></div></div></section>
      <section id="game_area_reviews"><h2>Reviews</h2><p>“A sprawling, generous blender that rewards patience.” 9/10 – Kitchen Monthly</p></section></main>`, productLd);
    const out = md(html, 'https://www.bazaarkart.example/voltaq-airblend-750/p/itm4c8e21a9f03b1');
    expect(out).toContain('losse binnenhoes');
    expect(out).not.toContain('Batter comes out super smooth');
    expect(out).not.toContain('Troquei minha máquina');
    expect(out).toContain('A sprawling, generous blender');
  });

  it("a marketplace item: its price above its name is the item's (coupons beside it are not); the sections its tabs lead to (#nav-specification, #nav-description) are content, its reviews are not", () => {
    const spec = (k: string, v: string) => `<li class="specification--line--IXeRJI7"><div class="specification--title--SfH3sA8"><span>${k}</span></div><div class="specification--desc--Dxx6W0W"><span>${v}</span></div></li>`;
    const html = page(`<div class="pdp-wrap"><div class="pdp-info"><div class="pdp-info-left"><img src="/k75.jpg" alt="K75 keyboard"></div><div class="pdp-info-right">
      <div class="price--wrap--tA4MDk4"><div class="price--current--I3Zeidd"><span>US $45.99</span></div><div class="price--original--wEueRiZ"><span>US $89.99</span> <span>49% off</span></div></div>
      <div class="coupon-block--wrap--pJXhCLb"><div>US $3 off on US $29+</div><div>New shoppers save US $4.20</div><button>Get coupons</button></div>
      <div class="title--wrap--UUHae_g"><h1>KEYMASTER K75 Wireless Mechanical Keyboard 75% Hot Swappable</h1></div></div></div>
      <div class="pdp-body-top"><div class="navigation--wrap--MjEzUSo" role="tablist"><a href="#nav-review" role="tab">Customer Reviews</a><a href="#nav-specification" role="tab">Specifications</a><a href="#nav-description" role="tab">Description</a></div>
      <div id="nav-review" class="pdp-body-top-left"><h2>Customer Reviews (312)</h2><div class="list--wrap"><div class="list--itemBox"><span>A***n</span><div>Arrived in eleven days, very well packed and the switches are smooth.</div></div><div class="list--itemBox"><span>K***z</span><div>Sound is deep and thocky for this price, the knob works on Mac too.</div></div></div></div>
      <div id="nav-specification" class="specification--wrap--lxVQ3ib"><h2>Specifications</h2><ul>${spec('Keyboard Structure', 'Gasket mount with PORON foam')}${spec('Keycaps', 'PBT double-shot, cherry profile')}${spec('Certification', 'CE, FCC, RoHS')}</ul></div>
      <div id="nav-description" class="description--wrap--Eohtc8F"><h2>Description</h2><p><strong>Three ways to connect, one keyboard for every desk</strong></p><p>Pair up to three Bluetooth devices and jump between them with one key, or plug in the 2.4G receiver for gaming without lag, or use the braided USB-C cable.</p>
      <p>Five layers of sound-damping foam sit between the PCB and the case, so every press sounds deep and even, from the space bar to the arrow keys.</p></div></div></div>`, productLd);
    const out = md(html, 'https://www.globuymart.example/item/1005006812345678.html');
    for (const t of ['US $45.99', '49% off', 'Gasket mount with PORON foam', 'Three ways to connect', 'Five layers of sound-damping foam']) expect(out, t).toContain(t);
    for (const t of ['New shoppers save', 'Arrived in eleven days']) expect(out, t).not.toContain(t);
  });

  it("a grid's tiles whose shown name and price are hidden from assistive technology because their link's aria-label says them: every tile", () => {
    const tile = (i: number) => `<article class="productTile_U0clN"><a class="productLink_KM4PI" href="/dress-${i}/prd/${2000 + i}" aria-label="Summer dress number ${i}; Price: £${20 + i}.00"><img src="/p/${i}.jpg" alt=""><div class="productInfo_M3WL1" aria-hidden="true"><p class="productDescription_sryaW">Summer dress number ${i} in lemon gingham</p><p><span class="price__B9LP">£${20 + i}.00</span></p></div></a><button aria-label="Save for later" type="button"></button></article>`;
    const html = page(`<main><div class="categoryBanner"><h1>Summer Dresses</h1><p>Hot days, long evenings and every garden party in between: our summer dress edit covers floaty midis, slip dresses and smocked minis in linen, cotton poplin and breezy viscose, in petite, tall, curve and maternity cuts.</p></div>
      <section class="listingPage"><div class="grid">${Array.from({ length: 12 }, (_, i) => tile(i)).join('')}</div></section></main>`);
    const out = md(html, 'https://www.modaro.example/women/dresses/summer-dresses/cat/?cid=8799');
    expect(out).toContain('Summer dress number 11 in lemon gingham');
    expect(out).toContain('£31.00');
  });

  it("an item's extra sections (PrestaShop's product__extra-content, its collapse named product-extra-1) are its content; 'extra' alone names furniture", () => {
    const html = page(`<main><div class="product__col"><h1>Théière en fonte Tetsubin 0,9 l</h1><div class="product__prices"><span class="price">75,65 €</span></div><section><h2>Description</h2>${description}</section></div>
      <div class="accordion-item product__extra-content"><h2 class="accordion-header" id="product-extra-1-heading"><button class="accordion-button collapsed" type="button" data-bs-toggle="collapse" data-bs-target="#product-extra-1-collapse" aria-expanded="false" aria-controls="product-extra-1-collapse">Conseils d'utilisation</button></h2>
      <div id="product-extra-1-collapse" class="accordion-collapse collapse" aria-labelledby="product-extra-1-heading"><div class="accordion-body"><p>Avant la première utilisation, rincez la théière deux fois à l'eau chaude. Après chaque service, videz-la, rincez-la et laissez-la sécher couvercle ouvert pour éviter les traces de calcaire.</p></div></div></div></main>`, productLd);
    const out = md(html, 'https://www.jardins-camellia.example/theieres/42-theiere-fonte-tetsubin.html');
    expect(out).toContain('laissez-la sécher couvercle ouvert');
  });

  it("reviews and shoppers' questions in Russian and Turkish ('Отзывы о товаре', 'Ürün Soru & Cevapları'), one question in a block named for questions, are not the item's content", () => {
    const html = page(`<main><div class="product-info"><h1>Увлажнитель воздуха Aerolux H4</h1><div class="price">2 590 ₽</div></div><section><h2>Описание</h2>${description}</section>
      <section><h2>Отзывы о товаре</h2><div class="rv"><p>Очень тихий, ребенок спит и ничего не слышит.</p></div><div class="rv"><p>Воды хватает на всю ночь, подсветку можно выключить.</p></div></section>
      <section><h2>Ürün Soru &amp; Cevapları</h2><div class="questions-wrapper"><div class="qna-item"><p class="qna-q">Kapağı bardak olarak kullanılabiliyor mu?</p><p class="qna-a">Evet, kapak bardak olarak kullanılabilir.</p></div></div></section></main>`, productLd);
    const out = md(html, 'https://shop.example/product/uvlazhnitel-aerolux-h4-123456/');
    expect(out).toContain('losse binnenhoes');
    expect(out).not.toContain('ребенок спит');
    expect(out).not.toContain('Kapağı bardak');
  });

  it("the collapsed rest of a section named by its test hook (data-test=\"seo-content-more\", aria-hidden) is a panel, content when panels are", () => {
    const $ = load('<div><p>A good kettle is one of the most-used appliances.</p><div data-test="seo-content-more" class="dqCzNf" aria-hidden="true"><h3>Glass, plastic or stainless steel?</h3><p>Stainless steel kettles are hard-wearing and easy to wipe clean.</p></div></div>');
    const el = $('[data-test="seo-content-more"]').get(0) as unknown as DomNode;
    expect(isNonContent(el, false, { classRules: true, hiddenPanels: true })).toBe(false);
    expect(isNonContent(el, false, { classRules: true })).toBe(true);
  });
});
