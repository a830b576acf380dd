import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

// Kind-aware main content (main-content.ts "sections"): on a service page every content section,
// on a product grid every card, not the one block that scores best. Small hand-written pages.
const md = (html: string, url: string) => parsePage(load(html), url, { text: false, links: false, metadata: false }).markdown;
const chrome = '<header><nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/contact">Contact</a></nav></header>';
const footer = '<footer><p>© Crossings Ltd. <a href="/privacy">Privacy policy</a></p></footer>';

describe('kind-aware main content', () => {
  it('a service page: hero, features, pricing, testimonials and FAQ, in order, without the site chrome', () => {
    const html = `<!doctype html><html><head><title>Crossings</title></head><body>${chrome}<main>
      <section class="hero"><h1>Crossings made simple</h1><p>We plan your passage across the bay.</p></section>
      <section class="features"><h2>What we do</h2><div class="feature-text"><p>Route planning for every tide: we read the tables, the forecast and the notices to mariners, and we draw a passage plan with its timings, its waypoints and its bail-out harbours.</p>
        <p>Berth booking at both ends, with the harbour masters we have worked with for years, so that you arrive to a berth that fits your boat, whatever the season, the hour or the weather.</p>
        <p>Crew briefings the evening before, on the boat or in the harbour café, covering the plan, the safety gear, the watches, the meals and what to do if the weather turns on the way.</p></div></section>
      <section class="pricing"><h2>Plans</h2><div class="plan"><h3>Day sail</h3><p>€90 per crossing</p></div><div class="plan"><h3>Season</h3><p>€900 for twelve crossings</p></div></section>
      <section class="testimonials"><h2>What sailors say</h2><blockquote>They found us a berth on a bank holiday weekend.</blockquote></section>
      <section class="faq"><h2>Questions</h2><h3>Can I cancel?</h3><p>Yes, up to a day before, at no cost.</p></section>
    </main>${footer}</body></html>`;
    // The kind comes from the page (its sections and their class names) and its URL path (`/services/`).
    const out = md(html, 'https://crossings.example/services/');
    const parts = ['Crossings made simple', 'Route planning for every tide', '€900 for twelve crossings', 'berth on a bank holiday', 'up to a day before'];
    const at = parts.map((p) => out.indexOf(p));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(out).not.toMatch(/About us|Privacy policy/);
  });

  it('a service page read section by section leaves out its "Read next" section of other pages', () => {
    const next = (i: number) => `<div class="card"><a href="/guides/${i}"><img src="/g${i}.svg" alt="Guide ${i}"></a><h3>Guide chapter ${i}</h3><p>What chapter ${i} of the guide covers, in a sentence or two for the reader.</p><a href="/guides/${i}">Read chapter ${i}</a></div>`;
    const html = `<!doctype html><html><head><title>Crossings</title></head><body>${chrome}<main>
      <section class="hero"><h1>Crossings made simple</h1><p>We plan your passage across the bay.</p></section>
      <section class="features"><h2>What we do</h2><div class="feature-text"><p>Route planning for every tide: we read the tables, the forecast and the notices to mariners, and we draw a passage plan with its timings, its waypoints and its bail-out harbours.</p>
        <p>Berth booking at both ends, with the harbour masters we have worked with for years, so that you arrive to a berth that fits your boat, whatever the season, the hour or the weather.</p></div></section>
      <section class="pricing"><h2>Plans</h2><div class="plan"><h3>Day sail</h3><p>€90 per crossing</p></div><div class="plan"><h3>Season</h3><p>€900 for twelve crossings</p></div></section>
      <section class="faq"><h2>Questions</h2><h3>Can I cancel?</h3><p>Yes, up to a day before, at no cost.</p></section>
      <section class="guides"><h2>Read Next</h2>${[1, 2, 3].map(next).join('')}</section>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://crossings.example/services/');
    for (const part of ['Crossings made simple', 'Berth booking at both ends', '€900 for twelve crossings', 'up to a day before']) expect(out).toContain(part);
    expect(out).not.toMatch(/Read Next|Guide chapter 2|About us/);
  });

  it('a product grid: every card in order, without the filter panel, sort control, breadcrumbs, pager or related searches', () => {
    const card = (i: number) => `<li class="product-card"><a href="/products/clock-${i}"><img src="/c${i}.jpg" alt=""><h3>Harbour clock model ${i}</h3></a><span class="price">$${20 + i}.00</span></li>`;
    const html = `<!doctype html><html><head><title>Clocks</title></head><body>${chrome}<main>
      <div class="breadcrumbs"><a href="/">Shop</a> › <a href="/c/home">Home and living</a> › Clocks</div>
      <h1>Clocks</h1>
      <div class="filters"><h2>Filter by</h2><label><input type="checkbox"> Brass finish</label><label><input type="checkbox"> Walnut finish</label></div>
      <div class="sort-by"><span>Sort by: Best sellers</span></div>
      <ul class="product-grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ul>
      <div class="pagination"><a href="?page=2">Next page</a></div>
      <div class="searches"><h2>Related searches</h2><ul><li><a href="/s/brass-clocks">Brass clocks</a></li><li><a href="/s/ship-clocks">Ship's bell clocks</a></li><li><a href="/c/barometers">Barometers</a></li></ul></div>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/collections/clocks');
    const at = Array.from({ length: 12 }, (_, i) => out.search(new RegExp(`Harbour clock model ${i + 1}(?!\\d)`)));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(out).toContain('$32.00');
    expect(out).not.toMatch(/Filter by|Brass finish|Sort by|Home and living|Next page|Privacy policy|Related searches|Ship's bell clocks/);
  });

  it("a grid's rails of other products under a store's heading go: in German, and one recently viewed item under \"Your Recently Viewed Items\"", () => {
    const card = (i: number, name = `Strickjacke Modell ${i}`) => `<div class="tile"><a href="/p/${i}"><img src="/s${i}.jpg" alt=""><h3>${name}</h3></a><span class="price">${40 + i},95 €</span></div>`;
    const html = `<!doctype html><html><head><title>Strickjacken</title></head><body>${chrome}<main>
      <h1>Suchergebnisse für „Strickjacke“</h1>
      <div class="grid">${Array.from({ length: 8 }, (_, i) => card(i + 1)).join('')}</div>
      <section><h2>Das könnte dir auch gefallen</h2><div class="rail">${[card(21, 'Grobstrickschal aus Schurwolle'), card(22, 'Rollkragenpullover aus Merino'), card(23, 'Mütze aus Kaschmir')].join('')}</div></section>
      <div class="recent"><h2>Your Recently Viewed Items</h2><div class="cells"><div class="cell"><a href="/p/99">Voltaris 24-inch monitor, black</a><span>$119.99</span></div></div></div>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://mode.example/katalog/?q=strickjacke');
    for (let i = 1; i <= 8; i++) expect(out).toContain(`Strickjacke Modell ${i}`);
    expect(out).not.toMatch(/Grobstrickschal|Rollkragenpullover|Das könnte dir|Voltaris|Recently Viewed/);
  });

  it("a grid's card controls in the stores' other languages (WooCommerce's 'Adicionar ao carrinho', Magento's 'Aggiungi per confrontare', 'In den Warenkorb', 'カートに入れる') are left out", () => {
    const controls = ['Adicionar ao carrinho', 'Ver opções', 'Aggiungi per confrontare', 'In den Warenkorb', 'Añadir al carrito', 'Dodaj do koszyka', 'カートに入れる', '장바구니 담기'];
    const card = (i: number) => `<li class="product"><a href="/produto/cafe-${i}"><img src="/c${i}.jpg" alt=""><h2>Café especial lote ${i}</h2><span class="price">R$${40 + i},90</span></a><a href="?add-to-cart=${i}" class="button">${controls[i % controls.length]}</a></li>`;
    const html = `<!doctype html><html><head><title>Loja</title></head><body>${chrome}<main><h1>Loja</h1><ul class="products">${Array.from({ length: 16 }, (_, i) => card(i + 1)).join('')}</ul></main>${footer}</body></html>`;
    const out = md(html, 'https://torra.example/loja/');
    for (let i = 1; i <= 16; i++) expect(out).toMatch(new RegExp(`Café especial lote ${i}(?!\\d)`));
    for (const c of controls) expect(out).not.toContain(c);
  });

  it("a shop's grid read as a listing (its buying guide below the tiles is long) whose selection is that guide: the tiles too", () => {
    const tile = (i: number) => `<li><article class="ProductCard"><a href="/p/jakke-${i}"><img src="/j${i}.jpg" alt=""><p class="brand">Bergtind</p><h3>Skalljakke modell ${i} herre</h3><span class="price">${i + 2} 299,-</span></a></article></li>`;
    const para = (t: string) => `<p>${t} Et godt skall holder regn og vind ute og slipper fukt fra kroppen ut, og en treslags jakke med forsterkede skuldre passer for topptur med tung sekk.</p>`;
    const html = `<!doctype html><html><head><title>Skalljakker</title></head><body>${chrome}<main><h1>Skalljakker til herre</h1><div class="filters"><button>Merke</button><button>Størrelse</button><button>Farge</button><button>Pris</button><span>Sorter etter: Mest populære</span></div><ul class="grid">${Array.from({ length: 11 }, (_, i) => tile(i + 1)).join('')}</ul><section><h2>Slik velger du riktig skalljakke</h2>${['Start med bruken.', 'Vannsøylen teller.', 'Prøv passformen.'].map(para).join('')}</section></main>${footer}</body></html>`;
    const out = md(html, 'https://fjell.example/herre/jakker/skalljakker');
    for (let i = 1; i <= 11; i++) expect(out).toContain(`Skalljakke modell ${i} herre`);
    expect(out).toContain('Vannsøylen teller.');
  });

  it("a store's category its CMS calls an article (og:type) while its JSON-LD says CollectionPage: the priced cards, not only the buying guide below them", () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"CollectionPage","name":"Couteaux japonais"}]}</script>';
    const card = (i: number) => `<div class="product-small col"><div class="box-image"><a href="/produit/couteau-${i}/"><img src="/c${i}.jpg" alt=""></a></div><div class="box-text"><p class="name product-title"><a href="/produit/couteau-${i}/">Couteau santoku série ${i}</a></p><span class="price">${100 + i},00&nbsp;€</span></div></div>`;
    const guide = ['Un couteau japonais se distingue par sa géométrie : une lame plus fine, affûtée entre 12 et 15 degrés, qui glisse dans les légumes au lieu de les écraser.', 'Les aciers inoxydables comme le VG-10 pardonnent un oubli dans l’évier, les aciers carbone prennent un fil plus fin mais demandent de l’entretien.', 'Une pierre à eau de grain 1000 suffit à redonner du mordant tous les deux ou trois mois, et l’affûtage en atelier reste gratuit.', 'Pour un premier achat, un santoku de 18 cm en VG-10 couvre presque tous les gestes du quotidien, du hachage des herbes à la découpe du poisson.'];
    const html = `<!doctype html><html><head><title>Couteaux japonais</title><meta property="og:type" content="article">${ld}</head><body>${chrome}<main><h1>Couteaux japonais</h1><div class="products row">${Array.from({ length: 40 }, (_, i) => card(i + 1)).join('')}</div><div class="term-description"><h2>Choisir son couteau</h2>${guide.map((p) => `<p>${p}</p>`).join('')}</div></main>${footer}</body></html>`;
    const out = md(html, 'https://coutellerie.example/categorie-produit/couteaux-japonais/');
    for (let i = 1; i <= 40; i++) expect(out).toMatch(new RegExp(`Couteau santoku série ${i}(?!\\d)`));
  });

  it("a grid whose prices are server-rendered in parts ($<!-- -->30) is read as its cards, not only its buying guide; its count line stays out", () => {
    const card = (i: number) => `<div class="col"><a href="/collection/shoes/${i}"><picture><img src="/s${i}.jpg" alt="Harbour shoe ${i}"></picture><h4>View details</h4><h2>Harbour shoe ${i}, black leather lace-up for formal wear</h2><div><p><span>$<!-- -->${20 + i}</span></p></div></a></div>`;
    const guide = `<section><h2>About our shoes</h2>${[1, 2].map((n) => `<p>Our selection of dress shoes caters to a variety of tastes (note ${n}), from a traditional look in classic black and brown to a polished patent finish, and each pair is made to complement both suits and tuxedos, so that you step out in style for any formal event.</p>`).join('')}</section>`;
    const html = `<!doctype html><html><head><title>Shoes</title></head><body>${chrome}<main><h1>Dress shoes</h1><p>Our curated collection of dress shoes.</p><div>1-12 items of 33</div><div class="facets"><h3>Colour</h3><label><input type="checkbox"> Black</label><label><input type="checkbox"> Brown</label></div><div class="grid">${Array.from({ length: 24 }, (_, i) => card(i + 1)).join('')}</div>${guide}</main>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/collection/shoes');
    for (let i = 1; i <= 24; i++) expect(out).toMatch(new RegExp(`Harbour shoe ${i}(?!\\d)`));
    expect(out).toContain('$44');
    expect(out).not.toContain('items of 33');
  });

  it("a product grid's card controls (Compare, + Wishlist, Quick shop, Add to cart) are left out, its cards' words stay", () => {
    const card = (i: number) => `<li class="product-card"><a href="/products/lamp-${i}"><img src="/l${i}.jpg" alt=""><h3>Harbour lamp model ${i}</h3></a><span class="price">$${40 + i}.00</span>
      <div class="card-actions"><label><input type="checkbox"> Compare</label></div><div><span>+ Wishlist</span></div><div><span class="quick">Quick shop</span></div><div><span class="btn">Add to cart</span></div><p>Brass lamp with a linen shade</p></li>`;
    const html = `<!doctype html><html><head><title>Lamps</title></head><body>${chrome}<main><h1>Lamps</h1><ul class="product-grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ul></main>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/collections/lamps');
    for (let i = 1; i <= 12; i++) expect(out).toMatch(new RegExp(`Harbour lamp model ${i}(?!\\d)`));
    expect(out).toContain('$52.00');
    expect(out).toContain('Brass lamp with a linen shade');
    expect(out).not.toMatch(/Compare|Wishlist|Quick shop|Add to cart/);
  });

  it("a Shopify (Dawn) grid's prices are read once: the sale form only on a card on sale, the regular form only on one that is not", () => {
    const price = (i: number, sale: boolean) =>
      `<div class="price${sale ? ' price--on-sale' : ''}"><div class="price__container"><div class="price__regular"><span class="visually-hidden">Regular price</span><span class="price-item price-item--regular">$${40 + i}.00</span></div><div class="price__sale"><span class="visually-hidden">Regular price</span><s class="price-item price-item--regular">${sale ? `$${50 + i}.00` : ''}</s><span class="visually-hidden">Sale price</span><span class="price-item price-item--sale">$${40 + i}.00</span></div></div></div>`;
    const card = (i: number) => `<li class="grid__item"><div class="card"><a href="/products/lamp-${i}"><img src="/l${i}.jpg" alt=""></a><h3><a href="/products/lamp-${i}">Harbour lamp model ${i}</a></h3>${price(i, i === 3)}</div></li>`;
    const html = `<!doctype html><html><head><title>Lamps</title></head><body>${chrome}<main><h1>Lamps</h1><ul class="product-grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ul></main>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/collections/lamps');
    for (let i = 1; i <= 12; i++) expect(out.split(`$${40 + i}.00`).length - 1).toBe(1);
    // The card on sale shows its old price (struck through) beside the sale price.
    expect(out).toContain('$53.00');
    expect(out).not.toMatch(/Regular price|Sale price/);
  });

  it('a thread whose opening post is a list of links and opens otherwise than the replies: that post too', () => {
    // The replies open with their microdata (<meta>), the opening post with its author line; its
    // text is mostly links to other threads, cleaned as a block of links when it was no record.
    const post = (i: number, first: string, text: string) => `<div class="post-frame x1"${i > 1 ? ' itemprop="comment" itemscope itemtype="https://schema.org/Comment"' : ''}>${first}<div class="post-author"><a href="/member/${i}">member${i}</a></div><div class="post-body">${text}</div></div>`;
    const links = ['Conservative campaign thread', 'Labour campaign thread', 'Green campaign thread', 'Seat prediction competition', 'Reading recommendations'].map((t, i) => `<a href="/thread/${i}">${t}</a>`).join('<br>');
    const replies = [
      'Reply one: it is certainly much sooner than expected, and I wonder whether the news about inflation was the trigger for this rather hasty announcement, which took everyone by surprise.',
      'Reply two: they could have at least got him an umbrella, the pouring rain made the whole thing look unplanned, which it probably was, judging by the reaction of his own party.',
      'Reply three: I personally think the better time would have been the autumn, with growth back, a few more falling inflation readings and the conference season out of the way first.',
    ];
    const html = `<!doctype html><html><head><title>Election thread</title></head><body>${chrome}<main><h1>Official election discussion</h1><div class="posts">
      ${post(1, '<span class="badge">Opening post</span>', `<b>The election will take place on the fourth of July.</b><br><br>This is the official thread; other threads:<br>${links}`)}
      ${replies.map((r, i) => post(i + 2, '<meta itemprop="dateCreated" content="2024-05-22">', r)).join('')}
    </div></main>${footer}</body></html>`;
    const out = md(html, 'https://students.example/showthread.php?t=7481802');
    expect(out).toContain('fourth of July');
    expect(out).toContain('Seat prediction competition');
    for (const r of ['Reply one', 'Reply two', 'Reply three']) expect(out).toContain(r);
  });

  it("a thread's user flair (old Reddit's span.flair beside the name) is post furniture like a user title; the name and the words stay", () => {
    const comment = (i: number) => `<div class="thing comment"><div class="entry"><p class="tagline"><a href="/user/rider${i}" class="author">rider${i}</a> <span class="flair flair-taller" title="Mecánica profesional">Mecánica profesional</span> <time datetime="2024-04-0${i}">hace ${i} horas</time></p>
      <div class="usertext-body"><div class="md"><p>Respuesta ${i}: llevo dos años con cubiertas tubeless para ir al trabajo y solo he tenido que rellenar el líquido una vez cada seis meses.</p></div></div></div></div>`;
    const html = `<!doctype html><html lang="es"><head><title>Tubeless</title></head><body>${chrome}<div class="content" role="main"><div class="sitetable nestedlisting">${[1, 2, 3, 4, 5].map(comment).join('')}</div></div>${footer}</body></html>`;
    const out = md(html, 'https://old.reddit.example/r/bicicletas/comments/1c8x2q/tubeless/');
    for (const part of ['rider1', 'Respuesta 1:', 'rider5', 'Respuesta 5:']) expect(out).toContain(part);
    expect(out).not.toContain('Mecánica profesional');
  });

  it('a forum thread whose post text sits deep in each post: every post, in order', () => {
    // Each post nests its text seven levels down (post > inner > cell > main > content > body > wrapper),
    // the way forum software lays posts out; the best-scoring block is one post's wrapper.
    const post = (i: number, words: string) => `<article class="message message--post"><div class="message-inner">
      <div class="message-cell message-cell--user"><h4 class="message-name"><a href="/members/u${i}">sailor${i}</a></h4></div>
      <div class="message-cell message-cell--main"><div class="message-main"><header class="message-attribution"><time datetime="2024-03-0${i}">Mar ${i}</time></header>
      <div class="message-content"><div class="message-userContent"><article class="message-body"><div><div class="bbWrapper">${words}</div></div></article></div></div></div></div>
    </div></article>`;
    const bodies = [
      // The opening post is long, the replies short (no reply scores near it).
      'Post one: the tide gauge on the north pier reads about a foot low whenever the wind has been in the west for a day or more, and I would like to know why. I have compared it with the tables for three months now, at every high water I could get to, and the gap grows with the length of the blow, then closes over two or three days once the wind backs south. The harbour office says the gauge was serviced last spring, the float moves freely, and the chart datum has not changed, so I am at a loss.',
      'Post two: the stilling well silts up after a westerly blow.',
      'Post three: same at our club, a longer inlet pipe fixed it.',
      'Post four: thanks all, the office will clear the well next week.',
    ];
    const html = `<!doctype html><html><head><title>Gauge reads low</title></head><body>${chrome}<div class="p-body"><h1>Tide gauge reads low in a westerly</h1>
      <div class="block-body">${bodies.map((b, i) => post(i + 1, b)).join('')}</div></div>${footer}</body></html>`;
    const out = md(html, 'https://boards.example/threads/gauge-reads-low.4411/');
    const at = ['Post one', 'Post two', 'Post three', 'Post four'].map((p) => out.indexOf(p));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('a product grid read whole: its side bar, related items, cookie box and site footer stay out, named only by class', () => {
    // The grid's page is read without the class rules (cards are often named like furniture);
    // blocks those rules drop and name as a side bar, related items, a consent box or a footer
    // stay out all the same. Each is a plain <div>, with no role or landmark tag.
    const card = (i: number) => `<div class="plp-card"><a href="/p/desk-${i}"><img src="/d${i}.jpg" alt=""><h3>Oak writing desk ${i}</h3></a><span class="price">$${120 + i}.00</span></div>`;
    const html = `<!doctype html><html><head><title>Desks</title></head><body><main><h1>Desks</h1>
      <div class="plp-list__side-bar"><h2>Shop by room</h2><a href="/c/office">Home office furniture</a><a href="/c/kids">Children's room desks</a><p>Browse gaming desks, standing desks and corner desks in every finish.</p></div>
      <div class="plp-grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</div>
      <section class="guide"><h2>How to choose a desk</h2><p>A writing desk should suit the room, the chair and the work you do at it, so measure the space first, and leave room to push the chair back.</p><p>Solid oak lasts for decades, takes a scratch well and can be sanded and oiled again, while veneer is lighter and costs less, for a desk that moves often.</p><p>Drawers keep papers close at hand, and a shelf above the top holds books, a lamp and a plant, without taking the space your elbows need.</p></section>
      <div class="related-categories"><h2>Shop more</h2><a href="/c/chairs">Office chairs and stools</a><a href="/c/lamps">Desk lamps</a></div>
    </main><div class="cookie-consent">We use cookies to give you the best experience on our site.</div><div class="site-footer-wrap"><p>Harbour Home Ltd, 1 Quay Street</p><a href="/privacy">Privacy policy</a></div></body></html>`;
    // Its buying guide is the longest prose: the grid is read whole, cards and guide.
    const out = md(html, 'https://shop.example/collections/desks');
    for (let i = 1; i <= 12; i++) expect(out).toMatch(new RegExp(`Oak writing desk ${i}(?!\\d)`));
    expect(out).toContain('$132.00');
    expect(out).toContain('Solid oak lasts for decades');
    expect(out).not.toMatch(/Shop by room|standing desks|Office chairs|We use cookies|Quay Street|Privacy policy/);
  });

  it('a news front page of story cards: every card, not the one whose excerpt is longest', () => {
    const card = (i: number) => `<article class="story-card"><h2><a href="/2024/05/story-${i}">Harbour story number ${i}</a></h2><p class="excerpt">${i === 3 ? 'The longest excerpt of the page, about the new quay, the dredging of the channel and the fishing fleet that will use it from next year, with a word from the harbour master.' : `A short excerpt about harbour story ${i}.`}</p><span class="byline">By the desk</span></article>`;
    const html = `<!doctype html><html><head><title>Harbour News</title><meta property="og:type" content="website"></head><body>${chrome}<main><div class="river">${Array.from({ length: 9 }, (_, i) => card(i + 1)).join('')}</div></main>${footer}</body></html>`;
    const out = md(html, 'https://harbour.example/');
    const at = Array.from({ length: 9 }, (_, i) => out.search(new RegExp(`Harbour story number ${i + 1}(?!\\d)`)));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(out).not.toMatch(/About us|Privacy policy/);
  });

  it("a news river whose cards show their blurb in a mouse-only link (aria-hidden, tabindex -1): each card's blurb", () => {
    const card = (i: number) => `<article class="river-article"><a href="/a/${i}" aria-hidden="true" tabindex="-1"><img src="/t${i}.jpg" alt=""></a><header><h2><a href="/a/${i}">Harbour headline ${i}</a></h2>
      <p class="river-desc"><a href="/a/${i}" aria-hidden="true" tabindex="-1">The blurb of story ${i}, about the quay and the boats that will use it next year.</a></p></header></article>`;
    const html = `<!doctype html><html><head><title>Harbour</title></head><body>${chrome}<main><h1>harbour</h1><section><h2>Stories</h2>${Array.from({ length: 8 }, (_, i) => card(i + 1)).join('')}</section><div aria-hidden="true">Hidden icons</div></main>${footer}</body></html>`;
    const out = md(html, 'https://news.example/topic/harbour');
    for (let i = 1; i <= 8; i++) expect(out).toContain(`The blurb of story ${i},`);
    expect(out).not.toContain('Hidden icons');
  });

  it("a template's unfilled section of placeholder copy (Lorem ipsum) is left out; a typography story quoting it keeps its quote", () => {
    const lorem = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.';
    const story = `<p>Each year the harbour board ranks the ports of the coast by tonnage, turnaround and safety, and the rankings decide where the new cranes go.</p>`.repeat(4);
    const html = `<!doctype html><html><head><title>Port rankings</title></head><body>${chrome}<main><h1>Port rankings 2025</h1>${story}
      <section class="four-col"><h3>Lorem Ipsum</h3><p>${lorem}</p><div class="row">${[1, 2, 3].map((i) => `<div><h5>Head Line ${i}</h5><p>${lorem}</p><ul><li>Lorem ipsum ${i}</li><li>Lorem ipsum ${i + 1}</li></ul></div>`).join('')}</div></section></main>${footer}</body></html>`;
    const out = md(html, 'https://ports.example/rankings-2025');
    expect(out).toContain('the rankings decide where the new cranes go');
    expect(out).not.toMatch(/lorem/i);
    const quoted = `<!doctype html><html><head><title>Filler text</title></head><body><main><h1>Why designers use filler text</h1>${story}<p>Lorem ipsum is the printing industry's dummy text, scrambled from a work of Cicero.</p><blockquote>${lorem}</blockquote><pre><code>${lorem}</code></pre>${story}</main></body></html>`;
    const about = md(quoted, 'https://type.example/filler');
    expect(about.match(/Lorem ipsum dolor/g)).toHaveLength(2);
    expect(about).toContain("Lorem ipsum is the printing industry's dummy text");
  });

  it('a topic page whose one section of story cards is headed "Latest News": the cards stay (the heading alone may go)', () => {
    const card = (i: number) => `<article class="river-article"><header><h2><a href="/a/${i}">Harbour headline ${i}</a></h2><p class="river-desc"><a href="/a/${i}">The blurb of story ${i}, about the quay and the boats that will use it next year.</a></p></header></article>`;
    const html = `<!doctype html><html><head><title>Harbour</title></head><body>${chrome}<main><h1>harbour</h1><section><h2>Latest News</h2>${Array.from({ length: 8 }, (_, i) => card(i + 1)).join('')}</section></main>${footer}</body></html>`;
    const out = md(html, 'https://news.example/topic/harbour');
    for (let i = 1; i <= 8; i++) expect(out).toContain(`The blurb of story ${i},`);
  });

  it('a listing whose cards are each one link around a title and an excerpt: the cards, not only a sidebar of comments', () => {
    // Every word of a card sits inside its link: read as links, the feed scores nothing and five
    // comments beside it win. The page is no story (og:type website), so a card's excerpt is text.
    const card = (i: number) => `<section class="my-1"><a href="/story-${i}"><div class="flex"><h3>Online learning story ${i}</h3><p>In 2025 the pace of change in online learning, story ${i} says, is unlike anything the sector has seen, with new platforms each month.</p></div></a></section>`;
    const comment = (i: number) => `<li><div><span>Reader ${i}</span><p>Comment ${i}: many pages have been changed since, and the rest, as far as I can tell, were replaced with pages like this one, which says little, if anything, about what happened, when, or why.</p></div></li>`;
    const page = (ogType: string) => `<!doctype html><html><head><title>Trending: online learning</title><meta property="og:type" content="${ogType}"></head><body>${chrome}
      <main><div class="feed"><h1>Online learning programs</h1>${Array.from({ length: 10 }, (_, i) => card(i + 1)).join('')}</div>
      <div class="side"><h2>Hot comments</h2><ul>${[1, 2, 3, 4, 5].map(comment).join('')}</ul></div></main>${footer}</body></html>`;
    const out = md(page('website'), 'https://news.example/trending/online-learning');
    for (let i = 1; i <= 10; i++) expect(out).toContain(`story ${i} says`);
    expect(out.indexOf('# Online learning programs')).toBe(0);
    // On a story, such cards are related stories: still links, not the story's text.
    const story = `<!doctype html><html><head><title>Ferry timetable</title><meta property="og:type" content="article"></head><body>${chrome}<main><article><h1>The new ferry timetable</h1>` +
      `<p>The ferry leaves from the north quay, and the crossing, in good weather, takes about forty minutes, longer when the wind is against the tide.</p><p>From June, a second boat runs at weekends, and the first sailing leaves at seven, an hour earlier than now, for the market.</p></article>` +
      `<div class="more">${Array.from({ length: 6 }, (_, i) => card(i + 1)).join('')}</div></main>${footer}</body></html>`;
    const read = md(story, 'https://news.example/ferry-timetable');
    expect(read).toContain('an hour earlier than now');
    expect(read).not.toContain('says, is unlike anything');
  });

  it('a product page: name, price, description and specifications, without the related-products carousel or menus', () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Brass tide clock","offers":{"@type":"Offer","price":"89.00","priceCurrency":"EUR"}}</script>';
    const related = (i: number) => `<div class="tile"><a href="/products/other-${i}"><img src="/o${i}.jpg" alt=""><span>Other clock ${i}</span></a><span>€${30 + i}.00</span></div>`;
    const menu = `<div class="mega"><ul>${['Clocks', 'Barometers', 'Lamps', 'Charts', 'Gifts', 'Sale', 'New in', 'Brands'].map((m) => `<li><a href="/c/${m}">${m} department</a></li>`).join('')}</ul></div>`;
    const html = `<!doctype html><html><head><title>Brass tide clock</title>${ld}</head><body>${chrome}${menu}<div class="pdp">
      <div class="gallery"><img src="/clock.jpg" alt=""></div>
      <div class="buy-box"><h1>Brass tide clock</h1><p class="price">€89.00</p><button>Add to cart</button></div>
      <div class="pdp-description"><p>A solid brass clock that shows the state of the tide, set once a month by the new moon.</p></div>
      <div class="pdp-specs"><table><tr><th>Diameter</th><td>24 cm</td></tr><tr><th>Weight</th><td>1.2 kg</td></tr><tr><th>Finish</th><td>Polished brass</td></tr></table></div>
      <div class="pdp-story"><h2>Made in Cornwall</h2><p>Each clock is turned, polished and lacquered by hand in our workshop by the harbour, then tested for a week before it leaves.</p></div>
    </div>
    <div class="carousel"><h2>Customers also bought</h2><div class="track">${Array.from({ length: 6 }, (_, i) => related(i + 1)).join('')}</div></div>
    ${footer}</body></html>`;
    const out = md(html, 'https://shop.example/products/brass-tide-clock');
    for (const part of ['Brass tide clock', '€89.00', 'state of the tide', 'Polished brass', 'turned, polished and lacquered']) expect(out).toContain(part);
    expect(out).not.toMatch(/Other clock|Barometers department|Privacy policy/);
  });

  it("a product page laid out in sections: the feature sections below the item's area too, not the related items", () => {
    // The description is selected, the name and price sit beside it in the item's block; the
    // features are sections of their own below that block.
    const feature = (h: string, p: string) => `<section class="feature"><img src="/${h.length}.jpg" alt=""><h2>${h}</h2><p>${p}</p></section>`;
    const card = (i: number) => `<li class="card"><a href="/products/mat-${i}"><img src="/m${i}.jpg" alt=""><span>Other mat ${i}</span></a><span>$${10 + i}.95</span></li>`;
    const html = `<!doctype html><html><head><title>Magnetic mat</title><meta property="og:type" content="product"></head><body>${chrome}<main>
      <div class="product"><div class="gallery"><img src="/mat.jpg" alt="Magnetic mat"></div><div class="buybox"><h1>Magnetic project mat</h1><span class="price">$19.95</span><button>Add to cart</button></div>
      <div class="description"><p>A magnetic mat that keeps every screw of a repair in its place, with a grid to lay the parts out in the order they came out of the device.</p><p>Its surface takes dry-erase markers, so you can note where each screw goes, and wipes clean when the repair is done.</p></div></div>
      ${feature('Time-saving organization', 'The gridded layout cuts the time it takes to put a device back together, and the risk of a screw in the wrong hole.')}
      ${feature('Magnetic hold', 'Screws and small parts stay where you put them, even when the mat is knocked or carried to another bench.')}
      ${feature('Dry-erase surface', 'Draw the layout of the parts and number the steps, and wipe the notes away with a dry cloth afterwards.')}
      <section class="recs"><h2>Customers also bought</h2><ul>${[1, 2, 3, 4].map(card).join('')}</ul></section>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/products/magnetic-mat');
    for (const s of ['# Magnetic project mat', '$19.95', 'wipes clean when the repair is done', '## Magnetic hold', 'wipe the notes away with a dry cloth']) expect(out).toContain(s);
    expect(out.indexOf('wipes clean')).toBeLessThan(out.indexOf('## Time-saving organization'));
    expect(out).not.toMatch(/Customers also bought|Other mat|Privacy policy/);
  });

  it("a product page whose description tabs come before the name in the source (OpenCart's left column): name, price and every tab, hidden ones too; a short stock line before the name stays out", () => {
    const para = (n: number) => `<p>Paragraph ${n} of the description: conical steel burrs of 40 mm turn slowly and barely warm the beans, so the aroma reaches the cup, and forty settings run from Turkish to cold brew.</p>`;
    const html = `<!doctype html><html><head><title>Burr grinder KM-40</title><meta property="og:type" content="product"></head><body>${chrome}<div id="content"><div class="row">
      <div class="col-sm-8"><ul class="thumbnails"><li><img src="/km40.jpg" alt=""></li></ul><p class="stock">Only 3 left in stock</p>
        <ul class="nav nav-tabs"><li><a href="#tab-description">Description</a></li><li><a href="#tab-specification">Specification</a></li></ul>
        <div class="tab-content"><div class="tab-pane active" id="tab-description">${[1, 2, 3].map(para).join('')}</div>
        <div class="tab-pane" id="tab-specification" style="display:none"><table><tr><td>Bean hopper</td><td>250 g</td></tr><tr><td>Burr diameter</td><td>40 mm</td></tr><tr><td>Warranty</td><td>24 months from the maker</td></tr></table></div></div></div>
      <div class="col-sm-4"><h1>Burr grinder KM-40</h1><ul class="list-unstyled"><li><h2>$94.90</h2></li></ul><button type="button" id="button-cart">Add to Cart</button></div>
    </div></div>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/index.php?route=product/product&product_id=88');
    for (const s of ['Burr grinder KM-40', '$94.90', 'Paragraph 3 of the description', 'Bean hopper', '24 months from the maker']) expect(out).toContain(s);
    expect(out).not.toContain('Only 3 left in stock');
  });

  it("a product page read with its sections: a store's sign-up line between them stays out", () => {
    const html = `<!doctype html><html><head><title>Magnetic mat</title><meta property="og:type" content="product"></head><body>${chrome}<main>
      <div class="product"><div class="gallery"><img src="/mat.jpg" alt="Magnetic mat"></div><div class="buybox"><h1>Magnetic project mat</h1><span class="price">$19.95</span><button>Add to cart</button></div>
      <div class="description"><p>A magnetic mat that keeps every screw of a repair in its place, with a grid to lay the parts out in the order they came out of the device.</p><p>Its surface takes dry-erase markers, so you can note where each screw goes, and wipes clean when the repair is done.</p></div></div>
      <section class="feature"><img src="/f.jpg" alt=""><h2>Time-saving organization</h2><p>The gridded layout cuts the time it takes to put a device back together, and the risk of a screw in the wrong hole.</p></section>
      <section class="band"><p>Subscribe to our newsletter for repair guides and tool deals.</p></section>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/products/magnetic-mat');
    for (const s of ['# Magnetic project mat', 'wipes clean when the repair is done', '## Time-saving organization', 'a screw in the wrong hole']) expect(out).toContain(s);
    expect(out).not.toContain('Subscribe to our newsletter');
  });

  it("a page declared a story whose selection is its intro, under a third of its prose, beside a landing page's blocks: every section", () => {
    // A school's catalogue of programmes: the intro is marked up as an Article; each programme is a
    // block of its own (a picture, a linked title, a paragraph, links to its certificates).
    const program = (i: number, name: string) => `<section><div class="widget widget-spotlight-stories features"><div class="row"><div class="col-md-4"><a href="/programs/${i}"><img src="/p${i}.jpg" alt=""></a><h3><a href="/programs/${i}">${name}</a></h3><p>${name} is taught by working practitioners over ten evenings, with case studies from local firms, a project marked by the instructors and a certificate recognised by the state's professional boards.</p><ul><li><a href="/programs/${i}/a">Certificate in ${name} I</a></li><li><a href="/programs/${i}/b">Certificate in ${name} II</a></li></ul></div></div></div></section>`;
    const html = `<!doctype html><html><head><title>Professional development</title></head><body><header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header><main>
      <section><div class="content" itemscope itemtype="https://schema.org/Article"><article><h1>Professional development</h1><p>Our professional development programmes offer over sixty certification courses for working professionals, taught online, on evenings and at weekends.</p><p>Designed and taught by experts, they prepare you to master what your work needs next.</p></article><div class="share"><a href="https://social.example/share">Share</a></div></div></section>
      ${['Accounting and auditing', 'Business analytics', 'Finance', 'Human resources', 'Project management', 'Supply chain'].map((n, i) => program(i, n)).join('')}
    </main><footer><p>© University</p></footer></body></html>`;
    const out = md(html, 'https://university.example/executive-education/professional-development/');
    for (const s of ['# Professional development', 'over sixty certification courses', 'Accounting and auditing', 'Finance is taught by working practitioners', 'Supply chain is taught by working practitioners']) expect(out).toContain(s);
    expect(out.indexOf('over sixty')).toBeLessThan(out.indexOf('Supply chain is taught'));
  });

  it("a product page's store sections (shipping and returns, a guarantee, fulfilment, other offers, help) are left out; the item's sections stay", () => {
    const feature = (h: string, p: string) => `<section class="feature"><img src="/${h.length}.jpg" alt=""><h2>${h}</h2><p>${p}</p></section>`;
    const html = `<!doctype html><html><head><title>Magnetic mat</title><meta property="og:type" content="product"></head><body>${chrome}<main>
      <div class="product"><div class="gallery"><img src="/mat.jpg" alt="Magnetic mat"></div><div class="buybox"><h1>Magnetic project mat</h1><span class="price">$19.95</span><button>Add to cart</button></div>
      <div class="description"><p>A magnetic mat that keeps every screw of a repair in its place, with a grid to lay the parts out in the order they came out of the device.</p><p>Its surface takes dry-erase markers, so you can note where each screw goes, and wipes clean when the repair is done.</p></div></div>
      ${feature('Time-saving organization', 'The gridded layout cuts the time it takes to put a device back together, and the risk of a screw in the wrong hole.')}
      ${feature('Magnetic hold', 'Screws and small parts stay where you put them, even when the mat is knocked or carried to another bench.')}
      <section class="policy"><h2>Shipping &amp; Returns</h2><p>Orders ship within one business day from our warehouse. Returns are accepted within 30 days of delivery in the original packaging.</p></section>
      <section class="policy"><h2>Lifetime Guarantee</h2><p>Every tool we sell is guaranteed for life: if it breaks, we replace it, no questions asked, wherever you bought it.</p></section>
      <section><h2>How do you want your item?</h2><p>Pickup today at the Quay Street store, or delivery tomorrow to your door.</p></section>
      <section><h2>More seller options (2)</h2><p>Starting from $18.99 from two other sellers on the marketplace.</p></section>
      <section><h2>Need help choosing gear?</h2><p>Talk to one of our experts in the store or call us any day of the week.</p></section>
      <section><h2>Be the first to review this item</h2><p>Bought this mat? Tell other shoppers what you thought of it.</p></section>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/products/magnetic-mat');
    for (const s of ['# Magnetic project mat', '$19.95', 'wipes clean when the repair is done', '## Magnetic hold']) expect(out).toContain(s);
    expect(out).not.toMatch(/Shipping & Returns|ship within one business day|Lifetime Guarantee|guaranteed for life/);
    // The store's other sections beside the item: its fulfilment choice, other offers, help prompt, an empty reviews box.
    expect(out).not.toMatch(/How do you want|Quay Street|seller options|two other sellers|Need help|our experts|Be the first|Tell other shoppers/);
  });

  it("a product page's customer reviews and questions are left out, also when the reviews are the longest prose on the page", () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail 25 pack","offers":{"@type":"Offer","price":"99.95","priceCurrency":"USD"}}</script>';
    const review = (i: number) => `<div class="review"><h3>Review ${i}: a great pack for day hikes</h3><p>${i * 3} people found this helpful</p><p>Reviewer ${i} wrote: ${'The straps are comfortable, the pockets are where you want them, and it carried a full day of gear on a long hike without rubbing anywhere, even in the heat. '.repeat(3)}</p></div>`;
    const html = `<!doctype html><html><head><title>Trail 25 pack</title>${ld}</head><body>${chrome}<div class="product">
      <div class="top"><h1>Trail 25 pack</h1><p>$99.95</p><p>A 25 litre daypack with a rain cover and a zip pocket under the lid.</p>
      <h2>Key details</h2><table><tr><th>Capacity</th><td>25 litres</td></tr><tr><th>Weight</th><td>830 grams</td></tr></table></div>
      <section><h2>Customer reviews</h2>${[1, 2, 3, 4].map(review).join('')}</section>
      <section><h2>Questions &amp; answers</h2><div class="qa"><p>Does it fit a 3 litre bladder? Yes, in the sleeve behind the back panel.</p></div><div class="qa"><p>Is the rain cover removable? Yes, it sits in its own pocket.</p></div></section>
    </div>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/product/227955/trail-25-pack');
    for (const part of ['Trail 25 pack', 'rain cover and a zip pocket', '830 grams']) expect(out).toContain(part);
    expect(out).not.toMatch(/people found this helpful|Reviewer \d wrote|3 litre bladder/);
    // A section that opens with a link within the page ("Back to navigation") before its heading.
    const skipLink = html.replace('<section><h2>Customer reviews</h2>', '<section class="product-reviews"><a href="#top">Back to navigation</a><header><h2>Reviews</h2></header>');
    expect(md(skipLink, 'https://shop.example/product/227955/trail-25-pack')).not.toMatch(/people found this helpful|Reviewer \d wrote/);
    // A heading that counts them first ("10 Customer ratings").
    const counted = html.replace('<section><h2>Customer reviews</h2>', '<section><h2>10 Customer ratings</h2>');
    expect(md(counted, 'https://shop.example/product/227955/trail-25-pack')).not.toMatch(/people found this helpful|Reviewer \d wrote/);
  });

  it("a book's editorial review (a section headed 'Review', the critics' praise) stays; its shoppers' reviews go", () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Small Habits","offers":{"@type":"Offer","price":"15.49","priceCurrency":"USD"}}</script>';
    const praise = (i: number) => `<div class="quote"><span class="bold">Critic ${i}, author of Book ${i}</span><span><br>"A practical and useful book that distills the science of habits into steps anyone can take, number ${i}." </span></div>`;
    const review = (i: number) => `<div class="review"><h3>Shopper ${i}</h3><p>${i * 3} people found this helpful</p><p>Shopper ${i} wrote: ${'I read it in a weekend and changed my morning routine the week after, which has stuck for months now. '.repeat(3)}</p></div>`;
    const html = `<!doctype html><html><head><title>Small Habits</title>${ld}</head><body>${chrome}<div class="product">
      <div class="top"><h1>Small Habits</h1><p>$15.49</p><p>A short guide to building good habits and breaking bad ones, one small change at a time.</p></div>
      <div id="editorial"><h2>Editorial Reviews</h2><div class="expander"><h3>Review</h3><div class="body">${[1, 2, 3, 4, 5, 6].map(praise).join('')}</div></div></div>
      <section><h2>Customer reviews</h2>${[1, 2, 3, 4].map(review).join('')}</section>
    </div>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/dp/0735211299');
    for (const part of ['Small Habits', 'one small change at a time', 'Critic 4, author of Book 4', 'anyone can take, number 6']) expect(out).toContain(part);
    expect(out).not.toMatch(/people found this helpful|Shopper \d wrote/);
  });

  it("a course page's curriculum accordion: each module's hidden lessons, after a toggle that names no panel (aria-expanded, no aria-controls)", () => {
    const module = (i: number) => `<div class="course-section"><div class="section-title" role="button" aria-expanded="false">Module ${i}: painting lesson group ${i}</div>
      <ul class="section-list" aria-hidden="true">${[1, 2, 3].map((j) => `<li class="section-item"><span class="lecture-name">Lesson ${i}.${j} on washes and glazes</span> <span class="lecture-duration">(8:30)</span></li>`).join('')}</ul></div>`;
    const html = `<!doctype html><html><head><title>Watercolour course</title></head><body>${chrome}<main>
      <section class="hero"><h1>Loose watercolour landscapes</h1><p>${'Paint skies, water and trees with confidence in six weeks of short daily lessons. '.repeat(2)}</p></section>
      <section class="curriculum"><h2>Curriculum</h2>${[1, 2, 3, 4].map(module).join('')}</section>
      <section class="faq"><h2>FAQ</h2><p>${'Every lesson stays yours for life, on any device, with downloads of the reference photos. '.repeat(2)}</p></section></main>${footer}</body></html>`;
    const out = md(html, 'https://courses.example/watercolour');
    for (const part of ['Module 1: painting lesson group 1', 'Lesson 1.1 on washes', 'Lesson 4.3 on washes', 'stays yours for life']) expect(out).toContain(part);
  });

  it("a landing page's testimonials carousel: every slide, also those hidden from assistive technology until shown, and a loop's copy once", () => {
    const slide = (i: number, hidden: boolean, cls = 'slide') => `<figure class="${cls}" aria-roledescription="slide" aria-label="${i} of 3"${hidden ? ' aria-hidden="true"' : ''}><blockquote><p>Quote ${i}: ${'the scheduling board paid for itself in the first month and the crews love it. '.repeat(2)}</p></blockquote><figcaption>Customer ${i}, operations lead</figcaption></figure>`;
    const html = `<!doctype html><html><head><title>Fieldwise</title></head><body>${chrome}<main>
      <section class="hero"><h1>Schedule every job without the whiteboard</h1><p>${'Fieldwise plans the crews, the vans and the parts so that the office stops firefighting. '.repeat(2)}</p></section>
      <section class="features"><h2>Features</h2><p>${'Drag a job onto a crew and the route, the parts list and the customer text follow on their own. '.repeat(2)}</p></section>
      <section class="testimonials"><h2>What customers say</h2><div class="carousel">${slide(1, false)}${slide(2, true)}${slide(3, true)}<div class="slick-slide slick-cloned" aria-hidden="true"><p>Quote 1 copy: the loop's clone</p></div></div></section>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://fieldwise.example/');
    for (const part of ['Quote 1:', 'Quote 2:', 'Quote 3:', 'Customer 3, operations lead']) expect(out).toContain(part);
    expect(out).not.toContain("the loop's clone");
  });

  it("a product page's reviews headed in another language, or titled by a block rather than a heading tag, are left out", () => {
    const review = (i: number) => `<li class="review-item"><div class="review-title">Titel ${i}</div><p>Kunde ${i} schreibt: ${'Die Jacke hält auch bei Dauerregen dicht und sitzt gut über dem Helm. '.repeat(2)}</p></li>`;
    const page = (heading: string) => `<!doctype html><html lang="de"><head><title>Regenjacke</title></head><body>${chrome}<main><div class="product-info-main"><h1>Sturmfest Regenjacke</h1><p class="price">249,00 €</p><button type="submit">In den Warenkorb</button></div>
      <div class="product description"><p>${'Dreilagige Hardshell für lange Tage über der Baumgrenze, winddicht und wasserdicht, leicht genug für jeden Rucksack. '.repeat(2)}</p><table><tr><th>Gewicht</th><td>395 g</td></tr><tr><th>Wassersäule</th><td>28.000 mm</td></tr></table></div>
      <div class="block review-list" id="customer-reviews">${heading}<ol>${[1, 2, 3].map(review).join('')}</ol></div></main>${footer}</body></html>`;
    // No JSON-LD, no og:type, no product path: a buy button beside a price and no grid make it a product page.
    for (const heading of ['<h2>Kundenbewertungen</h2>', '<h2>Bewertungen (3)</h2>', '<div class="block-title"><strong>Kundenbewertungen</strong></div>', '<div class="block-title"><strong>Customer Reviews</strong></div>', '<p class="h4">Opinie klientów</p>']) {
      const r = parsePage(load(page(heading)), 'https://nordgrat.example/sturmfest-regenjacke.html', { text: false, links: false });
      expect(r.metadata.page_kind).toBe('product');
      for (const part of ['Sturmfest Regenjacke', 'Dreilagige Hardshell', '28.000 mm']) expect(r.markdown).toContain(part);
      expect(r.markdown).not.toMatch(/Kunde \d schreibt|Titel \d/);
    }
  });

  it("a product page's hidden tab panel labelled by a reviews tab ('Omdömen (23)') is left out, however few reviews it carries; its other tab panels stay", () => {
    const html = `<!doctype html><html lang="sv"><head><title>Cylinder</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Pneumatisk cylinder NC63"}</script></head><body>${chrome}<main>
      <h1>Pneumatisk cylinder NC63, slaglängd 160 mm</h1><p class="price">2 480,00 kr</p>
      <div role="tablist"><button role="tab" id="btn-data" aria-controls="tab-data" aria-selected="true">Teknisk data</button><button role="tab" id="btn-reviews" aria-controls="tab-reviews" aria-selected="false">Omdömen (23)</button></div>
      <div role="tabpanel" id="tab-data" aria-labelledby="btn-data"><p>${'Dubbelverkande cylinder enligt ISO 15552 med justerbar pneumatisk dämpning i båda ändlägen. '.repeat(2)}</p><table><tr><th>Arbetstryck</th><td>1–10 bar</td></tr></table></div>
      <div role="tabpanel" id="tab-reviews" aria-labelledby="btn-reviews" hidden><div class="container"><h2>Betyg</h2><div class="review"><div class="title">Direkt ersättare</div><div>Passade exakt i befintliga fästen och dämpningen är lätt att ställa in.</div></div></div></div>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://industri.example/p/nc63-160');
    for (const part of ['Pneumatisk cylinder NC63', 'ISO 15552', '1–10 bar']) expect(out).toContain(part);
    expect(out).not.toMatch(/Passade exakt|Direkt ersättare/);
  });

  it("a page builder's content widgets (Elementor's icon boxes, image boxes) are content, named widgets like every block; its menu widget is not", () => {
    const para = (t: string) => `<div class="elementor-element elementor-widget elementor-widget-text-editor"><div class="elementor-widget-container"><p>${t} Our team plans each campaign with the owners, writes the copy in house and reports every month on what it brought in.</p></div></div>`;
    const box = (i: number) => `<div class="elementor-element elementor-widget__width-initial elementor-widget-mobile__width-initial elementor-widget elementor-widget-icon-box"><div class="elementor-widget-container"><div class="elementor-icon-box-wrapper"><div class="elementor-icon-box-content"><h3 class="elementor-icon-box-title"><span>Service line ${i}: brand strategy</span></h3><p class="elementor-icon-box-description">Positioning, naming and the story a clinic tells, in workshop ${i}, so that patients know whom to call.</p></div></div></div></div>`;
    const menu = '<div class="elementor-element elementor-widget elementor-widget-nav-menu"><div class="elementor-widget-container"><nav><ul><li><a href="/">Home</a></li><li><a href="/services">Services</a></li><li><a href="/contact">Contact</a></li></ul></nav></div></div>';
    const html = `<!doctype html><html><head><title>Advertising services</title><meta property="og:type" content="article"></head><body>${menu}<main><h1>Advertising services</h1>${para('We are an agency for clinics.')}${para('Every plan starts with a visit.')}<div class="elementor-element e-con-full e-flex e-con e-child"><div class="elementor-element elementor-widget elementor-widget-divider"><div class="elementor-widget-container"><div class="elementor-divider"><span class="elementor-divider-separator"><h3 class="elementor-divider__text">Stories that reach people</h3></span></div></div></div>${[1, 2, 3, 4, 5, 6].map(box).join('')}</div>${para('Ask us for a plan.')}</main>${footer}</body></html>`;
    const out = md(html, 'https://agency.example/advertising/');
    for (let i = 1; i <= 6; i++) expect(out).toContain(`Service line ${i}: brand strategy`);
    expect(out).toContain('in workshop 6');
    expect(out).not.toMatch(/\[Home\]|\[Contact\]/);
  });

  it("a landing page's sections kept whole as cards of prose still lose their booking form's labels", () => {
    const section = (i: number, extra = '') => `<section class="elementor-section"><div class="elementor-container"><h2>Step ${i} of the treatment</h2><p>In the ${i === 1 ? 'first' : 'next'} visit the dentist checks the bone, plans the implant with a scan and explains every cost, so that nothing comes as a surprise ${i}.</p>${extra}</div></section>`;
    const form = '<form class="elementor-form"><div><label for="n">Nombre y apellidos</label><input id="n" type="text"></div><div><label for="t">Teléfono de contacto</label><input id="t" type="tel"></div><label><input type="checkbox"> He leído y acepto la política de privacidad</label><button type="submit">Solicitar cita</button></form>';
    const html = `<!doctype html><html><head><title>Implantes</title></head><body>${chrome}<main><div class="elementor elementor-412"><h1>Implantes dentales</h1>${[1, 2, 3].map((i) => section(i)).join('')}${section(4, form)}</div></main>${footer}</body></html>`;
    const out = md(html, 'https://clinica.example/tratamientos/implantes/');
    for (let i = 1; i <= 4; i++) expect(out).toContain(`Step ${i} of the treatment`);
    expect(out).not.toMatch(/Nombre y apellidos|Teléfono de contacto|He leído/);
  });

  it("a store's raw custom fields (machine keys such as cat_thumb_Navy with image addresses) are left out; labelled details stay", () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Staple Tee","offers":{"@type":"Offer","price":"13.00","priceCurrency":"USD"}}</script>';
    const raw = ['Bone', 'Navy', 'Sage', 'Lime'].map((c) => `<dt class="info-name">cat_thumb_${c}:</dt><dd class="info-value">https://cdn.example/images/5001_${c.toUpperCase()}_THUMB.jpg</dd>`).join('');
    const html = `<!doctype html><html><head><title>Staple Tee</title>${ld}</head><body>${chrome}<main><h1>Staple Tee</h1><p class="price">$13.00</p><button>Add to cart</button>
      <p>Enduring comfort in a regular fit, crafted from 5.3 oz combed cotton, with neck ribbing and double needle hems for durability.</p>
      <dl class="info"><dt class="info-name">Fabric:</dt><dd class="info-value">Mid weight, 100% combed cotton</dd><dt class="info-name">retail_price_tier1:</dt><dd class="info-value">$13.00_1-49 items</dd>${raw}</dl></main>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/staple-tee-5001/');
    for (const part of ['Staple Tee', 'double needle hems', 'Fabric', 'Mid weight, 100% combed cotton']) expect(out).toContain(part);
    expect(out).not.toMatch(/cat_thumb|THUMB\.jpg|retail_price_tier1|1-49 items/);
  });

  it("an API reference's doc comments named so by its generator (TypeDoc's tsd-comment) are the reference's text, not readers' comments", () => {
    const member = (n: string, text: string) => `<section class="tsd-panel tsd-member"><h3>${n}</h3><div class="tsd-signature"><pre><code>${n}(): void</code></pre></div><div class="tsd-comment tsd-typography"><p>${text}</p></div></section>`;
    const html = `<!doctype html><html><head><title>JobQueue | ferry</title></head><body>${chrome}<div class="container"><div class="col-content"><div class="tsd-page-title"><h1>Class JobQueue</h1></div>
      <section class="tsd-panel tsd-comment"><div class="tsd-comment tsd-typography"><p>A persistent first-in, first-out job queue: jobs are written to the store before add resolves, so a crash never loses work.</p></div></section>
      <section class="tsd-panel-group tsd-member-group"><h2>Methods</h2>${member('start', 'Starts taking jobs from the store, up to the concurrency limit at a time.')}${member('stop', 'Stops taking new jobs and waits for the running ones to finish.')}${member('pause', 'Keeps the jobs in the store but hands none out until resume is called.')}</section></div></div>${footer}</body></html>`;
    const out = md(html, 'https://docs.ferry.example/api/classes/JobQueue.html');
    for (const part of ['a crash never loses work', 'up to the concurrency limit', 'waits for the running ones', 'until resume is called']) expect(out).toContain(part);
  });

  it("an API reference page: its <main> whole (title, summary, prose, parameter tables, response example), not only its longest block of prose", () => {
    const prose = 'Los importes se expresan siempre en la unidad mínima de la moneda, y el total incluye los impuestos del país de envío y los gastos de transporte vigentes. '.repeat(5);
    const html = `<!doctype html><html lang="es"><head><title>Crear un pedido</title></head><body>${chrome}<nav class="rm-Sidebar"><a href="/reference/a">Autenticación</a> <a href="/reference/b">Pedidos</a></nav>
      <main class="rm-Article" id="content"><header class="rm-ArticleHeader"><h1>Crear un pedido</h1><div class="rm-APIMethod"><span>post</span> <code>https://api.tienda.example/v1/pedidos</code></div><div class="rm-Markdown excerpt"><p>Crea un pedido nuevo para un cliente existente.</p></div></header>
      <div class="rm-Article-body"><div class="rm-Markdown markdown-body"><p>${prose}</p></div>
      <section class="rm-APISectionHeader"><h2>Parámetros del cuerpo</h2><table class="rm-ParamTable"><tr><th>Nombre</th><th>Tipo</th><th>Descripción</th></tr><tr><td>cliente_id</td><td>string</td><td>Identificador del cliente que hace el pedido.</td></tr><tr><td>cantidad</td><td>integer</td><td>Unidades pedidas; debe ser mayor que cero.</td></tr></table></section>
      <section class="rm-APIResponseSchemaPicker"><h2>Respuestas</h2><pre><code class="lang-json">{ "id": "ped_7Hq2", "estado": "pendiente" }</code></pre></section></div></main>${footer}</body></html>`;
    const out = md(html, 'https://docs.tienda.example/reference/crear-pedido');
    for (const part of ['Crea un pedido nuevo', 'la unidad mínima de la moneda', 'Unidades pedidas; debe ser mayor que cero.', '"id": "ped_7Hq2"']) expect(out).toContain(part);
  });

  it("a documentation page's parameters set in code (table_name, help_text) stay", () => {
    const html = `<!doctype html><html><head><title>SELECT</title></head><body>${chrome}<main><h1>SELECT</h1><p>${'SELECT retrieves rows from zero or more tables, and this page describes each clause and parameter in turn. '.repeat(3)}</p>
      <h2>Parameters</h2><dl><dt><code>table_name</code></dt><dd><p>The name (optionally schema-qualified) of an existing table or view to read the rows from.</p></dd>
      <dt><code>with_query_name</code></dt><dd><p>A WITH query is referenced by writing its name, just as though the name were a table name.</p></dd></dl></main>${footer}</body></html>`;
    const out = md(html, 'https://docs.example/docs/sql-select.html');
    for (const part of ['table_name', 'existing table or view', 'with_query_name', 'referenced by writing its name']) expect(out).toContain(part);
  });

  it("a product page whose document does not show the description: the JSON-LD description, once", () => {
    const desc = 'A solid brass clock that shows the state of the tide &amp; the moon, set once a month by the new moon.';
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage","name":"x"},{"@type":"Product","name":"Brass tide clock","description":"${desc}","offers":{"@type":"Offer","price":"89.00","priceCurrency":"EUR"}}]}</script>`;
    const page = (description: string) => `<!doctype html><html><head><title>Brass tide clock</title>${ld}</head><body>${chrome}<main><h1>Brass tide clock</h1><p class="price">€89.00</p><button>Add to cart</button>
      <div class="tabs"><div class="tab-panel" id="description">${description}</div><div class="tab-panel" id="specs"><table><tr><th>Diameter</th><td>24 cm</td></tr><tr><th>Weight</th><td>1.2 kg</td></tr></table></div></div></main>${footer}</body></html>`;
    const empty = md(page(''), 'https://shop.example/products/brass-tide-clock');
    expect(empty).toContain('state of the tide & the moon');
    expect(empty).toContain('24 cm');
    const shown = md(page(`<p>${desc}</p>`), 'https://shop.example/products/brass-tide-clock');
    expect(shown.split('state of the tide').length - 1).toBe(1);
    // A description the store wrote URL-encoded ("A%20solid%20brass%20clock…") reads decoded.
    const encoded = page('').replace(desc, encodeURIComponent('A solid brass clock that shows the state of the tide, set once a month.'));
    const decoded = md(encoded, 'https://shop.example/products/brass-tide-clock');
    expect(decoded).toContain('A solid brass clock that shows the state of the tide, set once a month.');
    expect(decoded).not.toContain('%20');
  });

  it("a service page's FAQ in <details>: the answers a closed disclosure marks aria-hidden are content", () => {
    const qa = (q: string, a: string) => `<details aria-expanded="false"><summary><h4>${q}</h4><span role="presentation" aria-label="icon"></span></summary><div class="content" aria-hidden="true"><div><p>${a}</p></div></div></details>`;
    const html = `<!doctype html><html><head><title>Crossings</title></head><body>${chrome}<main>
      <section class="hero"><h1>Crossings made simple</h1><p>We plan your passage across the bay, with its timings, waypoints and bail-out harbours.</p></section>
      <section class="features"><h2>What we do</h2><p>Route planning for every tide: we read the tables, the forecast and the notices to mariners, and draw the passage plan.</p></section>
      <section class="faq"><h2>Crossings FAQs</h2>${qa('Can I cancel?', 'Yes, up to a day before the crossing, at no cost to you.')}${qa('Do you take dogs?', 'Dogs sail free when they wear a life jacket of their own.')}</section>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://crossings.example/services/');
    for (const part of ['Can I cancel?', 'up to a day before the crossing', 'Dogs sail free']) expect(out).toContain(part);
  });

  it('a product page: the content of its tab panels, hidden tabs included', () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Brass tide clock"}</script>';
    const html = `<!doctype html><html><head><title>Brass tide clock</title>${ld}</head><body>${chrome}<main><h1>Brass tide clock</h1><p class="price">€89.00</p>
      <div role="tablist"><button role="tab">Description</button><button role="tab">Specifications</button><button role="tab">Care</button></div>
      <div role="tabpanel" id="t1"><p>A solid brass clock that shows the state of the tide, set once a month by the new moon, turned and lacquered by hand.</p></div>
      <div role="tabpanel" id="t2" hidden><table><tr><th>Diameter</th><td>24 cm</td></tr><tr><th>Weight</th><td>1.2 kg</td></tr></table></div>
      <div class="tab-panel" id="t3" style="display:none"><p>Wipe with a dry cloth; never polish the lacquered face.</p></div>
      <div class="newsletter-popup" hidden><p>Sign up for ten percent off your first order.</p></div></main>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/products/brass-tide-clock');
    for (const part of ['state of the tide', '24 cm', 'never polish the lacquered face']) expect(out).toContain(part);
    expect(out).not.toContain('ten percent off');
  });

  it('an accordion marked up as a tab list (Bootstrap: role="tablist" around its tabpanels) is content; a list of tabs is not', () => {
    const para = (i: number) => `<p>Part ${i} of the transcript: we asked what cleaning products do to the lungs of the people who use them at home every week, and what the studies found.</p>`;
    const html = `<!doctype html><html><head><title>Keeping it clean</title></head><body>${chrome}<main><article><h1>Keeping it clean</h1>
      <p>This episode features audio from three videos on cleaning products. Visit the video pages for all sources.</p></article>
      <div id="podcast-info" role="tablist" aria-multiselectable="true"><div class="card"><div class="card-header" role="tab"><h5><a data-toggle="collapse" href="#collapseTranscript">Podcast Transcript</a></h5></div>
        <div id="collapseTranscript" class="collapse" role="tabpanel">${[1, 2, 3, 4, 5, 6].map(para).join('')}</div></div></div>
      <div role="tablist" class="episode-tabs"><a role="tab" href="#latest">Latest episodes</a><a role="tab" href="#popular">Most popular episodes</a></div>
      </main>${footer}</body></html>`;
    const out = md(html, 'https://podcast.example/audio/keeping-it-clean/');
    expect(out).toContain('Part 1 of the transcript');
    expect(out).toContain('Part 6 of the transcript');
    expect(out).not.toContain('Most popular episodes');
  });

  it("a block named like furniture is the content when the page's URL path names the page so (a newsletter issue at /newsletter/…)", () => {
    const para = (i: number) => `<p>Step ${i}: train each muscle group twice a week, with two exercises per group, and keep the hard work of a session to under an hour after the warm-up, rest included, then stop for the day.</p>`;
    const page = `<!doctype html><html><head><title>Fitness protocol</title></head><body>${chrome}<main>
      <section class="section-hero cc-newsletter"><div class="newsletter-wrapper"><article class="newsletter-content"><h1>Foundational fitness protocol</h1>
        ${[1, 2, 3, 4, 5, 6, 7].map(para).join('')}</article></div></section>
      <section class="podcast"><h2>Listen to the podcast</h2>${[1, 2, 3, 4].map((i) => `<p>Episode ${i}: new episodes come every Monday, with guests from the sciences, on sleep, training, food and focus; every episode comes with its notes.</p>`).join('')}</section>
      </main>${footer}</body></html>`;
    const issue = md(page, 'https://lab.example/newsletter/foundational-fitness-protocol');
    expect(issue).toContain('Step 1: train each muscle group');
    expect(issue).toContain('Step 7: train each muscle group');
    // The same block on a page the path does not name so stays furniture (a newsletter box around prose).
    const other = md(page, 'https://lab.example/podcast/episode-12');
    expect(other).not.toContain('Step 1: train each muscle group');
    expect(other).toContain('Episode 4: new episodes');
  });

  it("on a product page, a block named by a word of the page's path (community-tab on /vs/community/) is the product's, not furniture", () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Studio Community","offers":{"@type":"Offer","price":"0","priceCurrency":"USD"}}</script>';
    const pane = (t: string, active: boolean) => `<div class="tab-pane${active ? ' active' : ''}" role="tabpanel"><h3>${t}</h3><p>${t}: write, debug and ship code with tools built for teams of every size, from a single developer to a classroom, for free.</p></div>`;
    const page = `<!doctype html><html><head><title>Studio Community</title>${ld}</head><body>${chrome}<main><h1>Studio Community</h1><p>A free, full-featured editor and debugger for students, open-source projects and individual developers.</p>
      ${['Flexibility', 'Productivity', 'Ecosystem', 'Languages'].map((t) => `<section class="feature"><h2>${t}</h2><p>${t} for every project: the editor grows with your work, from a first script to a large solution shared by a whole team, and it stays fast on any machine.</p><p>Extensions, themes and settings travel with your account, so ${t.toLowerCase()} is the same wherever you sign in.</p></section>`).join('')}
      <div class="tabs community-tab"><ul class="nav-tabs"><li><a href="#a">Coding</a></li><li><a href="#b">Debugging</a></li></ul><div class="tab-content">${pane('Powerful coding tools', true)}${pane('Advanced debugging', false)}</div></div>
      <div class="community-sidebar"><h3>Join the forum</h3><p>Ask questions and share answers with other developers in our forum, open to everyone who signs in with an account.</p></div>
      </main>${footer}</body></html>`;
    const out = md(page, 'https://studio.example/vs/community/');
    expect(out).toContain('Powerful coding tools: write, debug');
    expect(out).toContain('Advanced debugging: write, debug');
    // Other furniture words still name furniture there.
    expect(out).not.toContain('Join the forum');
  });

  it('a data table whose class says its header row sticks (wikitable sticky-header) is content; a sticky page header is not', () => {
    const rows = Array.from({ length: 30 }, (_, i) => `<tr><td>${1901 + i}</td><td>Physicist ${i}</td><td>Chemist ${i}</td><td>Writer ${i}</td></tr>`).join('');
    const html = `<!doctype html><html><head><title>List of laureates</title></head><body><div class="sticky-header"><a href="/">Home</a> <a href="/random">Random page</a> <span>Search the encyclopedia</span></div>
      <main><h1>List of laureates</h1>${[1, 2, 3, 4].map((i) => `<p>Note ${i}: the prizes are awarded every year to people and organisations for outstanding work in physics, chemistry and literature, and this list names them all.</p>`).join('')}
      <table class="wikitable sortable sticky-header"><tr><th>Year</th><th>Physics</th><th>Chemistry</th><th>Literature</th></tr>${rows}</table></main>${footer}</body></html>`;
    const out = md(html, 'https://wiki.example/wiki/List_of_laureates');
    expect(out).toContain('| 1901 | Physicist 0 | Chemist 0 | Writer 0 |');
    expect(out).toContain('| 1930 | Physicist 29 |');
    expect(out).not.toContain('Search the encyclopedia');
  });

  it("a block the page's framework shows on a condition (v-cloak with v-if, x-cloak with x-show) is closed; a cloaked app root is content", () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Wool runner"}</script>';
    const html = `<!doctype html><html><head><title>Wool runner</title>${ld}</head><body>${chrome}<div id="app" v-cloak><main><h1>Wool runner</h1><p class="price">$110</p>
      <p>A light everyday shoe knitted from merino wool, soft enough to wear without socks and washable in a machine on the gentle cycle.</p>
      <div v-cloak v-if="isNotifyOpen" class="modal"><h3>Notify me when back in stock</h3><p>Once limited colours sell out they are gone for good, so sign up and we will let you know.</p>
        <div v-if="isNotifySuccess"><p>We got your details and will keep you in the loop.</p></div></div>
      <div x-cloak x-show="sizeChart" class="drawer"><p>Average width and average length for each size, measured on the last in centimetres.</p></div></main></div>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/products/wool-runner');
    expect(out).toContain('knitted from merino wool');
    for (const part of ['Notify me', 'keep you in the loop', 'Average width']) expect(out).not.toContain(part);
  });

  it("a service page's cards that are each one link around a title and a paragraph are read, also on a page its CMS calls an article", () => {
    const card = (t: string, d: string) => `<div class="col"><a href="/services/hr/${t.toLowerCase().replace(/\W+/g, '-')}/"><div class="card"><h3>${t}</h3><p>${d}</p></div><div class="card__link"><span>Learn more</span></div></a></div>`;
    const cards = [
      ['Career transition', 'Consulting and our own career portal with the latest online tools, to help your people through a change of job and on to the next one.'],
      ['Employee relations', 'Training for managers and supervisors that improves relations with employees and morale, and lowers turnover in the process.'],
      ['Compliance', 'Reviews of your policies, handbooks and records against the rules that apply to you, with a plan to close every gap we find.'],
      ['Compensation', 'Salary surveys, pay bands and bonus plans that keep you competitive for the people you want to hire and the people you have.'],
      ['Recruiting', 'Job descriptions, sourcing and interviews run with you, from the first posting to the signed offer and the first day at work.'],
      ['Training', 'Workshops for teams and leaders on the topics that matter to you, taught on site or online, with material to keep afterwards.'],
    ];
    const html = `<!doctype html><html><head><title>HR consulting</title><meta property="og:type" content="article"></head><body>${chrome}<main>
      <section class="hero"><h1>HR consulting</h1><p>People are your biggest investment. We help you hire, keep and grow them.</p></section>
      <section class="intro"><h2>How we help</h2><p>Our consultants have run HR departments themselves, so they know what works in practice and what only works on paper.</p></section>
      <section class="listings"><h2>Our services</h2><div class="row">${cards.map(([t, d]) => card(t, d)).join('')}</div></section>
      ${['Payroll', 'Benefits', 'Handbooks', 'Audits', 'Surveys', 'Coaching'].map((t) => `<section class="feature"><h2>${t} done right</h2><p>${t} for teams of five to five thousand.</p><p>Fixed fees, no surprises.</p><ul><li>Set up in a week</li><li>One contact person</li></ul></section>`).join('')}
      <section class="contact"><h2>Talk to us</h2><p>Tell us what you need and we will call you back within a day.</p></section></main>${footer}</body></html>`;
    const out = md(html, 'https://advisors.example/services/hr-solutions/hr-consulting/');
    for (const part of ['HR consulting', 'Career transition', 'lowers turnover in the process', 'from the first posting to the signed offer', 'Coaching done right', 'call you back within a day']) expect(out).toContain(part);
  });

  it("a service page's offerings as cards that are each one link around a heading and a blurb not in a <p>: every card's text", () => {
    const card = (i: number, name: string) => `<div class="grid-col"><a class="card-link" href="/services/${i}"><h3>${name}</h3><div class="desc">Our ${name.toLowerCase()} team works with yours from the first workshop to the last handover, with measures agreed up front.</div><span>Find out more</span></a></div>`;
    const names = ['Assurance', 'Audit', 'Consulting', 'Cyber', 'Tax', 'Strategy'];
    const html = `<!doctype html><html><head><title>Our services</title></head><body>${chrome}<main>
      <section class="hero"><h1>Our services</h1><p>Whether you are starting up or in the Fortune 500, tap into our range of services to help your business thrive.</p></section>
      <section class="features"><h2>Explore our services</h2><div class="grid">${names.map((n, i) => card(i, n)).join('')}</div></section>
      <section class="about"><h2>About the firm</h2>${[1, 2, 3, 4].map((i) => `<p>Paragraph ${i} about the firm: founded by two auditors in a room above a harbour office, it grew one client at a time, and today it works in forty countries with the same habit of writing everything down.</p>`).join('')}</section>
      <section class="testimonials"><h2>What clients say</h2><p>They made the audit the calmest week of our year, and found two savings on the way.</p></section>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://firm.example/services.html');
    // The card grid was one block of links to the rule that drops link lists (each card's whole
    // text is its link's): its titles are the link text, its blurbs are text.
    expect(out).toContain('Paragraph 4 about the firm');
    for (const n of names) expect(out).toContain(`Our ${n.toLowerCase()} team works with yours`);
    expect(out).toContain('calmest week of our year');
  });

  it('a service page: its calls to action and a link list at the bottom that is not marked as a footer stay out', () => {
    const section = (cls: string, h: string, p: string) => `<section class="${cls}"><h2>${h}</h2><p>${p}</p><a class="btn btn-primary" href="/signup">Get started free</a></section>`;
    const html = `<!doctype html><html><head><title>Crossings</title></head><body>${chrome}<main>
      ${section('hero', 'Crossings made simple', 'We plan your passage across the bay, from the tide tables to the berth at the other end.')}
      ${section('features', 'What we do', 'Route planning for every tide, berth booking at both ends, and crew briefings the evening before.')}
      ${section('pricing', 'Plans', 'Day sail at €90 a crossing; a season of twelve crossings for €900.')}
      ${section('faq', 'Questions', 'You can cancel up to a day before at no cost, and move a crossing as often as the weather asks.')}
    </main><div class="site-bottom"><ul><li><a href="/about">About the company</a></li><li><a href="/careers">Careers at Crossings</a></li><li><a href="/privacy">Privacy policy</a></li><li><a href="/terms">Terms of service</a></li></ul></div></body></html>`;
    const out = md(html, 'https://crossings.example/services/');
    for (const part of ['Crossings made simple', 'Route planning for every tide', '€900', 'no cost']) expect(out).toContain(part);
    expect(out).not.toMatch(/Get started free|Careers at Crossings|Privacy policy/);
  });

  it('a "list of" page whose content is lists of links: the declared main content, not a few words', () => {
    const letter = (l: string) => `<h2>${l}</h2><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="/wiki/${l}${i}">${l}-harbour ${i}</a></li>`).join('')}</ul>`;
    const html = `<!doctype html><html><head><title>List of harbours</title></head><body>${chrome}<div class="layout"><aside><p>Tools</p></aside>
      <main><h1>List of harbours</h1><p>This list of harbours is incomplete, and you can help by adding to it.</p>${['A', 'B', 'C', 'D', 'E', 'F'].map(letter).join('')}</main></div>${footer}</body></html>`;
    const out = md(html, 'https://wiki.example/wiki/List_of_harbours');
    for (const l of ['A', 'C', 'F']) expect(out).toContain(`${l}-harbour 9`);
    expect(out).not.toMatch(/About us|Privacy policy/);
  });

  it('a page that hides its body until scripts reveal it: the hidden content, not the few words shown', () => {
    // The shop streams its grid into display:none holders and a script moves them into place; only
    // a cookie line shows without scripts. A block hidden from assistive technology stays out.
    const card = (i: number) => `<div class="tile"><a href="/coffee/blend-${i}">Harbour blend number ${i}</a><span>$${14 + i}.99</span></div>`;
    const html = `<!doctype html><html><head><title>Coffee</title></head><body>${chrome}
      <div class="notice"><p>We use cookies.</p></div>
      <div id="holder-1" style="display:none"><h1>All coffee</h1><p>Roasted on the quay every Tuesday and sent out the same afternoon, whole bean or ground to order.</p>
        ${Array.from({ length: 14 }, (_, i) => card(i + 1)).join('')}</div>
      <div id="holder-2" style="display:none" aria-hidden="true"><p>Decorative duplicate of the mega menu with many words in it for nobody to read at all.</p></div>
      <div id="holder-3" hidden class="modal"><p>Sign up for our newsletter and get ten percent off your first bag of coffee.</p></div>
    ${footer}</body></html>`;
    const out = md(html, 'https://coffee.example/all');
    expect(out).toContain('Roasted on the quay every Tuesday');
    for (let i = 1; i <= 14; i++) expect(out).toMatch(new RegExp(`Harbour blend number ${i}(?!\\d)`));
    expect(out).not.toMatch(/Decorative duplicate|Sign up for our newsletter|Privacy policy/);
  });

  it('a grid of short cards, none a paragraph, beside a dialog with a sentence: the cards, not the dialog', () => {
    // No card has a paragraph of prose and the page declares no content element, so the
    // paragraph-scoring passes pick the dialog's one sentence.
    const card = (i: number) => `<div class="item"><a href="/mowers/kr${i}"><h3>KR${100 + i} quiet robotic lawn mower</h3></a><div>Mows ${i} acres a day</div><div>Ships in ${i} days</div></div>`;
    const html = `<!doctype html><html><head><title>Robotic mowers</title></head><body>${chrome}
      <div class="wrap"><h2>Robotic lawn mowers</h2><div class="grid">${Array.from({ length: 10 }, (_, i) => card(i + 1)).join('')}</div></div>
      <div class="dealer-box"><h3>We are growing our dealer network.</h3><p>Leave your email, and we will let you know when a dealer opens near you.</p></div>
    ${footer}</body></html>`;
    const out = md(html, 'https://mowers.example/robotic-lawn-mowers/');
    for (let i = 1; i <= 10; i++) expect(out).toContain(`KR${100 + i} quiet robotic lawn mower`);
    expect(out).toContain('Mows 10 acres a day');
    expect(out).not.toMatch(/Privacy policy|About us/);
  });

  it('a forum thread whose posts are named as comments: every post, not the app-install box beside them', () => {
    // Forum software names the thread's container and its posts "comments"; the furniture rule for
    // comments must not drop the thread. An install banner with a few sentences sits above it.
    const post = (i: number, text: string) => `<article class="cPost ipsComment" id="comment-${i}"><div class="cAuthorPane"><a href="/profile/${i}">member${i}</a><h5 class="userTitle">Hall of Famer</h5><dl class="message-userExtras"><dt>Joined</dt><dd>Apr 13, 2009</dd><dt>Messages</dt><dd>73,365</dd></dl></div>
      <div class="ipsComment_content"><p class="ipsComment_meta"><time datetime="2024-04-1${i}">April 1${i}, 2024</time></p><div class="cPost_contentWrap"><div data-role="commentContent"><p>${text}</p><p>Reply ${i}, with what we learned on the way, for whoever books next: compare the offers, read the terms.</p></div><div class="signature">Unix is simple and coherent, said somebody once.</div><div class="reactionsBar">Like Reactions: sailor${i}</div></div></div></article>`;
    const texts = [
      'Just thought I would start a thread on whether a travel agent is worth it for a cruise. I have booked twice on my own and once through an agent, and the agent found us a cabin upgrade that I never saw offered online.',
      'Our agent handled the flights and the transfers when the ship changed its port, and we did not have to spend an hour on the phone.',
      'I book directly: the cruise line gives the same price, and I like to pick the cabin from the deck plan myself.',
      'An agent is only as good as the agent; ours forgot the dining time twice, so now we check everything ourselves.',
      'Agents get group rates and onboard credit that the line does not offer to single bookings, so ask before you book.',
    ];
    const html = `<!doctype html><html><head><title>Pros and cons of a travel agent</title></head><body>${chrome}
      <div class="pwa-box"><h2>Install the app</h2><p>A full-screen app on your home screen with push notifications, badges and more.</p><p>To install this app on iOS and iPadOS, tap the share icon in Safari, scroll the menu and tap Add to Home Screen, then tap Add in the top-right corner.</p><p>To install this app on Android, tap the three-dot menu in the browser, tap Install App, and confirm the installation.</p></div>
      <h1>Pros and cons of using a travel agent</h1>
      <div id="comments" class="cTopic">${texts.map((t, i) => post(i + 1, t)).join('')}</div>
    ${footer}</body></html>`;
    const out = md(html, 'https://boards.example/topic/3003956-pros-cons-of-a-travel-agent/');
    const at = ['cabin upgrade that I never saw', 'changed its port', 'pick the cabin from the deck plan', 'forgot the dining time', 'group rates and onboard credit'].map((p) => out.indexOf(p));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // Each post keeps its author and date; the poster's title, stats, signature and reactions go.
    expect(out).toContain('member3');
    expect(out).toContain('April 13, 2024');
    expect(out).not.toMatch(/Hall of Famer|Apr 13, 2009|73,365|simple and coherent|Reactions/);
  });

  it("a thread's author pane as MyBB writes it: the poster's role and statistics go, the name and post stay; so do a locked thread's notice and who liked a post", () => {
    const post = (i: number) => `<div class="post" id="post_${i}"><div class="post_author"><div class="author_information"><strong><a href="/user-${i}.html">member${i}</a></strong><p class="team-role team-role--standard">Big Board Owner</p></div><div class="author_statistics">Posts: 1${i}6<br>Threads: 2${i}<br>Joined: Feb 2019<br>Reputation: <a href="/reputation.php?uid=${i}">7</a></div></div>
      <div class="post_content"><div class="post_head"><span class="post_date">2019-02-2${i}, 09:14 PM</span></div><div class="post_body">Reply ${i}: I converted my board last spring and kept every member, though the old attachments took a script of their own to move, and the theme needed a week.</div></div></div>`;
    const html = `<!doctype html><html><head><title>Converting from SMF</title></head><body>${chrome}<h1>Converting from SMF to MyBB</h1><div id="posts">${[1, 2, 3, 4, 5].map(post).join('')}<div class="blockMessage">Not open for further replies.</div></div>${footer}</body></html>`.replace('needed a week.</div>', 'needed a week.</div><div class="likes"><a href="/u/9">WiSK</a>, <a href="/u/8">JapesUK</a> and <a href="#likes">4 others</a> like this.</div>');
    const out = md(html, 'https://community.example/showthread.php?tid=222085');
    expect(out).toContain('member4');
    expect(out).toContain('Reply 5: I converted my board');
    expect(out).not.toMatch(/Big Board Owner|Posts: 1|Threads: 2|Joined: Feb 2019|Reputation|further replies|like this/);
  });

  it("a thread whose replies follow the opening post under a \"Comments\" heading, in blocks named for comments with few commas: every reply", () => {
    // The discussion's opening post is the longest block; the replies sit in a `CommentsWrap` under
    // a "Comments" heading. On a story those are its readers' comments; on a thread, its posts.
    const opening = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1} of the announcement: the open source edition stops getting updates at the end of the year, and the hosted forum stays up for now, so plan a move.</p>`).join('');
    const reply = (i: number, who: string, text: string) => `<li class="Item ItemComment" id="Comment_${i}"><div class="Comment"><div class="Item-Header CommentHeader"><a class="Username" href="/profile/${who}">${who}</a> <time datetime="2025-03-0${i}">March 2025</time></div><div class="Item-Body"><div class="Message userContent"><p>${text}</p></div></div></div></li>`;
    const html = `<!doctype html><html><head><title>Open source edition ends</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Open source edition ends"}</script></head><body>${chrome}
      <main class="Content"><div class="MessageList Discussion"><h1>Open source edition ends</h1><div class="Discussion"><div class="Item-Body"><div class="Message userContent">${opening}</div></div></div></div>
      <div class="CommentsWrap"><div class="DataBox DataBox-Comments"><h2 class="CommentHeading">Comments</h2><ul class="MessageList DataList Comments">
        ${reply(1, 'K17', 'Really sad but I think we all saw it coming to an end. Good luck too')}
        ${reply(2, 'mcrouse', 'We regret the misunderstanding in our communications and will share more updates as they become available')}
        ${reply(3, 'Linc', 'Well that is certainly my plan and I will keep the lights on as long as I can')}
      </ul></div></div></main>${footer}</body></html>`;
    const out = md(html, 'https://forum.example/discussion/39620/open-source-edition-ends');
    const at = ['Paragraph 1 of the announcement', 'saw it coming to an end', 'share more updates', 'keep the lights on'].map((p) => out.indexOf(p));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('a layout wrapper named like furniture ("with_header") around <main> is the page frame, not a header', () => {
    const para = (i: number) => `<p>Paragraph ${i} of the guide: the ferry leaves from the north quay, and the crossing takes about forty minutes, longer when the wind is against the tide.</p>`;
    const html = `<!doctype html><html><head><title>Crossing guide</title></head><body>
      <div class="notice"><p>We would like to use optional storage on your device to remember your choices and to measure how the site is used, so that we can improve it.</p><p>You can change your mind at any time on the settings page, and nothing optional is stored until you agree to it here.</p></div>
      <div class="page_frame with_header"><div class="page_content"><main><h1>Crossing guide</h1>${[1, 2, 3, 4].map(para).join('')}</main></div></div>
    </body></html>`;
    const out = md(html, 'https://ferries.example/guide');
    expect(out).toContain('Paragraph 4 of the guide');
    expect(out).not.toContain('optional storage');
  });

  it("a product grid above the category's <h1> and description: every card, not only the description", () => {
    // The category's name and buying guide are at the foot of the page, below its products: the
    // grid stands "before the title", where a masthead's link lists are, but it is the page.
    const card = (i: number) => `<li class="product-item"><a class="product-item-link" href="/pieces/set-${i}.html">Reproduced tournament chess pieces number ${i} in boxwood, 3.8 inch king</a><span class="price">$1${i}4.00</span><button class="tocart">Add to Cart</button></li>`;
    const guide = [1, 2, 3].map((i) => `<p>Buying guide paragraph ${i}: tournament pieces are the most affordable sets in the range, stained boxwood or sheesham, and make an excellent gift for club and school players alike.</p>`).join('');
    const html = `<!doctype html><html><head><title>Tournament chess pieces</title></head><body>${chrome}
      <main><div class="columns"><div class="column main"><ol class="products">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ol></div>
      <div class="category-description"><h1>Tournament Chess Pieces</h1>${guide}</div></div></main>
    ${footer}</body></html>`;
    const out = md(html, 'https://chess.example/chess-pieces/tournament.html');
    for (let i = 1; i <= 12; i++) expect(out).toContain(`chess pieces number ${i} in boxwood`);
    expect(out).toContain('Buying guide paragraph 3');
    expect(out).not.toMatch(/About us|Privacy policy/);
  });

  it("a blog category whose selection is its intro above the story cards: the intro and every card's title", () => {
    // A category page keeps its posts' og:type (article); its intro is the longest prose, its
    // cards (an <article> each, a linked title and no excerpt) are what it lists.
    const card = (i: number) => `<article class="post entry"><header class="entry-header"><a href="/recipe-${i}" aria-hidden="true" tabindex="-1"><img src="/r${i}.jpg" alt=""></a><h2 class="entry-title"><a href="/recipe-${i}">Crispy recipe number ${i} with a longer title</a></h2></header><footer class="entry-footer"></footer></article>`;
    const html = `<!doctype html><html><head><title>Air fryer recipes</title><meta property="og:type" content="article"></head><body>${chrome}
      <div class="archive-description"><h1>Air fryer recipes</h1><p>Quick and healthy air fryer recipes, everything from breakfast to snacks to dinners, and we love how the air fryer makes everything crispy in record time with little to no oil.</p><p>For meal prep I love making the bacon and the eggs, and do not miss a reader favourite: the chicken thighs, so juicy and flavourful and so simple to make on a weeknight.</p></div>
      <main class="content">${Array.from({ length: 8 }, (_, i) => card(i + 1)).join('')}</main>
    ${footer}</body></html>`;
    const out = md(html, 'https://food.example/category/air-fryer/');
    expect(out).toContain('little to no oil');
    for (let i = 1; i <= 8; i++) expect(out).toContain(`Crispy recipe number ${i} with a longer title`);
    expect(out).not.toMatch(/About us|Privacy policy/);
  });

  it('an <aside> left unclosed around <main> (the parser nests the page in it) is no sidebar', () => {
    // An announcement banner whose closing tags are missing: a browser, like our parser, puts the
    // rest of the page inside the <aside>, <main> included; the whole page came out empty.
    const para = (i: number) => `<p>Lesson ${i} of the talk: hire for curiosity, ship small, and measure what your customers do rather than what they say they will do.</p>`;
    const html = `<!doctype html><html><head><title>Startup lessons</title></head><body>
      <aside class="announcement-banner"><div><a href="/news"><span>We joined a larger company</span></div>
      <nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
      <main><article><h1>Startup lessons</h1>${[1, 2, 3, 4].map(para).join('')}</article></main>
      <footer><a href="/privacy">Privacy policy</a></footer>
    </body></html>`;
    const out = md(html, 'https://startup.example/blog/lessons');
    for (let i = 1; i <= 4; i++) expect(out).toContain(`Lesson ${i} of the talk`);
    expect(out).not.toContain('Privacy policy');
  });

  it('a listing told by its cards only, whose selection is its short intro: the intro and every card', () => {
    // Nine recipe cards (a title link and a few words each) below a heading and one paragraph:
    // too few cards to be plainly a listing, so the paragraph-scoring passes take the intro alone.
    const card = (i: number) => `<div class="recipe-tile"><a href="/recipes/dish-${i}"><img src="/d${i}.jpg" alt=""><h3>Crispy dish number ${i}</h3></a><span>${10 + i} minutes</span></div>`;
    const html = `<!doctype html><html><head><title>Air fryer recipes</title></head><body>${chrome}
      <div class="intro"><div class="intro-inner"><h1>Air fryer recipes</h1><p>I love a meal with crispiness and crunch, and these recipes deliver: perfectly cooked proteins, the crispiest vegetables, and quick dinners for busy weeknights.</p></div></div>
      <div class="results"><div class="tiles">${Array.from({ length: 9 }, (_, i) => card(i + 1)).join('')}</div></div>
    ${footer}</body></html>`;
    const out = md(html, 'https://food.example/recipes/air-fryer-recipes/');
    expect(out).toContain('crispiness and crunch');
    for (let i = 1; i <= 9; i++) expect(out).toContain(`Crispy dish number ${i}`);
    expect(out).not.toMatch(/About us|Privacy policy/);
  });
  it('a landing page told by its sections only, whose longest prose is its testimonials: every section', () => {
    const quote = (who: string, text: string) => `<figure><blockquote><p>${text}</p></blockquote><p>${who}</p></figure>`;
    const features = [['Forecast demand', 'Labour levels from sales'], ['Swap shifts', 'Staff trade shifts'], ['Run payroll', 'One click, every rule'], ['Onboard hires', 'Papers signed online'], ['Track hours', 'Clock in from a phone'], ['Leave', 'Requests and balances'], ['Hiring', 'Post jobs, screen'], ['Messages', 'Team chat built in']];
    const rows = [['Schedules', 'Yes', 'Yes'], ['Time clock', 'Yes', 'Yes'], ['Payroll', 'No', 'Yes'], ['HR files', 'No', 'Yes'], ['Forecasting', 'No', 'Yes'], ['Support', 'Email', 'Phone and email'], ['Sites', 'One', 'Unlimited'], ['Integrations', 'Two', 'All']];
    const html = `<!doctype html><html><head><title>Shiftly</title></head><body>${chrome}
      <section class="hero"><h1>Scheduling and payroll for your hourly team</h1><p>Build schedules, track hours and pay your staff.</p></section>
      <section><h2>All in one place</h2><ul>${features.map(([t, d]) => `<li><h3>${t}</h3><p>${d}</p></li>`).join('')}</ul></section>
      <section><h2>What it changes</h2><p>450% return on investment</p><p>80% less time spent on schedules</p><p>11% lower labour costs</p></section>
      <section><h2>Customers</h2>
        ${quote('Dana, operations lead', 'The alert system and the dashboards help us see every day where our team is short, and managers know exactly where they need to fill the gaps before a shift starts, not after it has gone wrong.')}
        ${quote('Nico, HR manager', 'It made human resources simpler for our employees, for our managers and for our administrators, across every one of our sites, and we stopped entering the same data twice in three different tools.')}
      </section>
      <section><h2>Plans</h2><p>Starter: $4 per user a month</p><p>Pro: $6 per user a month</p>
        <table><tr><th>Feature</th><th>Starter</th><th>Pro</th></tr>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table></section>
    ${footer}</body></html>`;
    // A home page (no services path, no declared service, few blocks named like a landing page's):
    // its kind comes from its sections alone, and its selection (the testimonials) is a fraction of them.
    const out = md(html, 'https://shiftly.example/');
    for (const part of ['Scheduling and payroll for your hourly team', 'Swap shifts', '450% return on investment', 'alert system and the dashboards', 'Pro: $6 per user a month', 'Phone and email']) expect(out).toContain(part);
    expect(out).not.toMatch(/About us|Privacy policy/);
  });

  it('a landing page under a path that reads like a story\'s (/learn/…) whose selection is a few lines: every section', () => {
    // Its tiles are named `promo-tile` (the class rules drop them), so the strict selection is the
    // one paragraph of prose; the path alone says "story", which must not keep the tiles out.
    const offers = [['Live TV', 'Explore channels and packages'], ['Stream store', 'Every streaming service in one bill'], ['Sports', 'Every game of the season, live'], ['Movies', 'New films the day they come out'], ['Kids', 'Shows picked for every age'], ['News', 'Local and world news around the clock'], ['Voice remote', 'Say what you want to watch'], ['Recordings', 'Keep shows for a year'], ['Apps', 'Watch on every screen at home'], ['Spanish', 'Channels in Spanish'], ['Premium', 'Add the channels you love'], ['Deals', 'Save when you bundle']];
    const tiles = [...offers, ...offers.map(([t, d]) => [`${t} extra`, d]), ...offers.map(([t, d]) => [`${t} plus`, d])];
    const html = `<!doctype html><html><head><title>Cable TV</title></head><body>${chrome}<main>
      <section class="block"><div class="wrap"><div class="inner"><h1>Entertainment</h1><p>Build your plan.</p></div></div></section>
      <section class="block"><div class="wrap"><div class="inner"><h2>An unmatched viewing experience</h2><p>Award-winning equipment lets you pair our entertainment with internet and mobile, at home and away, for a value, a choice and a picture that nobody else around here can match, whatever you watch.</p></div></div></section>
      ${tiles.map(([t, d]) => `<section class="promo-tile"><div class="wrap"><div class="inner"><h2>${t}</h2><p>${d}.</p></div></div></section>`).join('')}</main>${footer}</body></html>`;
    const out = md(html, 'https://isp.example/learn/digital-cable-tv');
    for (const part of ['An unmatched viewing experience', 'Stream store', 'Every game of the season, live', 'Deals plus']) expect(out).toContain(part);
    expect(out).not.toMatch(/About us|Privacy policy/);
  });
  it('the same landing page whose selection passes 500 characters: its path alone still makes it no story', () => {
    // The path says "story" but nothing the page declares does: read as a landing page's sections
    // whatever the length of its one paragraph (at 520 characters the tiles were all left out).
    const offers = [['Live TV', 'Explore channels and packages'], ['Stream store', 'Every streaming service in one bill'], ['Sports', 'Every game of the season, live'], ['Movies', 'New films the day they come out'], ['Kids', 'Shows picked for every age'], ['News', 'Local and world news around the clock'], ['Voice remote', 'Say what you want to watch'], ['Recordings', 'Keep shows for a year'], ['Apps', 'Watch on every screen at home'], ['Spanish', 'Channels in Spanish'], ['Premium', 'Add the channels you love'], ['Deals', 'Save when you bundle']];
    const tiles = ['', ' extra', ' plus', ' max', ' one', ' two', ' duo', ' trio'].flatMap((x) => offers.map(([t, d]) => [`${t}${x}`, d]));
    const prose = 'Award-winning equipment lets you pair our entertainment with internet and mobile, at home and away, for a value, a choice and a picture that nobody else around here can match, whatever you watch. ';
    const html = `<!doctype html><html><head><title>Cable TV</title></head><body>${chrome}<main>
      <section class="block"><div class="wrap"><div class="inner"><h1>Entertainment</h1><p>Build your plan.</p></div></div></section>
      <section class="block"><div class="wrap"><div class="inner"><h2>An unmatched viewing experience</h2><p>${prose.repeat(3)}</p></div></div></section>
      ${tiles.map(([t, d]) => `<section class="promo-tile"><div class="wrap"><div class="inner"><h2>${t}</h2><p>${d}.</p></div></div></section>`).join('')}</main>${footer}</body></html>`;
    const out = md(html, 'https://isp.example/learn/digital-cable-tv');
    for (const part of ['An unmatched viewing experience', 'Stream store', 'Every game of the season, live', 'Deals trio']) expect(out).toContain(part);
    expect(out).not.toMatch(/About us|Privacy policy/);
    // Declared a story by its type, the same page keeps its selection.
    const story = md(html.replace('<title>', '<script type="application/ld+json">{"@type":"Article","headline":"Cable TV"}</script><title>'), 'https://isp.example/learn/digital-cable-tv');
    expect(story).toContain('An unmatched viewing experience');
    expect(story).not.toContain('Deals trio');
  });
  it("a service page's FAQ in collapsed accordion panels (the ARIA pattern): every answer, shown or not", () => {
    const item = (i: number, q: string, a: string) =>
      `<li><h3><button aria-controls="faq-${i}" aria-expanded="${i === 1}" id="faq-h-${i}">${q}</button></h3><div class="faq-item" role="region" id="faq-${i}" aria-labelledby="faq-h-${i}" aria-hidden="${i !== 1}"><p>${a}</p></div></li>`;
    const html = `<!doctype html><html><head><title>Pet cover</title></head><body>${chrome}<main>
      <section class="hero"><h1>Pet insurance</h1><p>Help protect your pet and your budget from unexpected vet bills.</p></section>
      <section class="features"><h2>Plans</h2><div class="plan"><h3>Accidents and illnesses</h3><p>Emergency care, tests and specialist visits, with the deductible you choose.</p></div><div class="plan"><h3>Wellness</h3><p>Checkups, vaccinations and teeth cleaning without a deductible.</p></div></section>
      <section class="faq"><h2>Common questions</h2><ul>
        ${item(1, 'How does it work?', 'The policy reimburses part of your eligible vet bills after you pay the vet.')}
        ${item(2, 'Can I use my own vet?', 'Yes: there are no networks or copays, any licensed vet in the country will do.')}
        ${item(3, 'Is there a waiting period?', 'Illnesses are covered after fifteen days, accidents from the first day.')}
      </ul></section></main>${footer}</body></html>`;
    const out = md(html, 'https://cover.example/pet-insurance/');
    for (const part of ['Help protect your pet', 'Checkups, vaccinations', 'reimburses part of your eligible vet bills', 'no networks or copays', 'covered after fifteen days']) expect(out).toContain(part);
  });
  it('a product page saved with a consent dialog open (its <main> hidden from assistive technology): the item, not the dialog', () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Clutch kit 628318200","offers":{"@type":"Offer","price":"355.58","priceCurrency":"EUR"}}</script>';
    const card = (i: number) => `<li><a href="/itm/${700 + i}"><img src="/s${i}.jpg" alt=""><h3>Clutch kit RepSet ${i} for vans</h3></a><span>EUR ${200 + i}.00</span></li>`;
    const html = `<!doctype html><html><head><title>Clutch kit</title>${ld}</head><body>
      <div class="site-header" aria-hidden="true">${chrome}</div>
      <main aria-hidden="true"><div class="item"><h1>Clutch kit 628318200 for Daily V vans</h1><p class="price">EUR 355.58</p>
        <div class="item-specifics"><p>Condition: new. A clutch kit with pressure plate, disc and release bearing, for vans built from 2011 to 2014, with the fitting instructions in the box.</p><p>Item number: 404928375058</p></div></div>
        <section><h2>Similar items</h2><ul>${Array.from({ length: 5 }, (_, i) => card(i)).join('')}</ul></section></main>
      <section class="notice" role="dialog" aria-modal="true"><div><p>We use cookies and other technologies that are essential to provide our services and site functionality, as described in our Cookie Notice. If you agree and click "Accept all", we and our partners will also use cookies to personalise ads and measure their performance, and to improve our site.</p><p>You can change your choices at any time in the settings at the foot of every page, and read more in the notice.</p></div></section>
    </body></html>`;
    const out = md(html, 'https://shop.example/itm/404928375058');
    for (const part of ['Clutch kit 628318200 for Daily V vans', 'EUR 355.58', 'pressure plate, disc and release bearing', '404928375058']) expect(out).toContain(part);
    expect(out).not.toMatch(/We use cookies|Clutch kit RepSet/);
  });
  it("a phpBB thread read without the class rules: each post's author and text, not its profile box's rank, count and join date or its reply subject", () => {
    const post = (i: number, text: string) => `<div id="p${i}" class="post bg${i % 2}"><div class="inner"><dl class="postprofile" id="profile${i}"><dt><a href="./memberlist.php?u=${i}">Poster ${i}</a></dt><dd>Senator</dd><dd><strong>Posts:</strong> 40${i}2</dd><dd><strong>Founded:</strong> Dec 11, 2021</dd><dd>Psychotic Dictatorship</dd></dl>
      <div class="postbody"><h3>${i === 1 ? 'Football season' : 'Re: Football season'}</h3><p class="author">by <strong>Poster ${i}</strong> » Tue Aug 2${i}, 2019 1:47 am</p><div class="content">${text}</div></div></div></div>`;
    const texts = [
      'The new season is one of the wildest in football history, with so many small teams qualifying for the cup and the league format changed again.',
      'The league standings are linked below for everyone who wants to follow along week by week, with the cup draws after them.',
      'I think the champions will retain the title, but the cup is anyone\'s guess after the draw this morning.',
    ];
    const html = `<!doctype html><html><head><title>Football season</title></head><body>${chrome}<div id="page-body"><h2><a href="./viewtopic.php?t=4871">Football season</a></h2>${texts.map((t, i) => post(i + 1, t)).join('')}</div>${footer}</body></html>`;
    const out = md(html, 'https://forum.example/viewtopic.php?f=20&t=4871');
    for (const part of ['wildest in football history', 'standings are linked below', 'retain the title', 'Poster 2', 'Aug 22, 2019']) expect(out).toContain(part);
    expect(out).not.toMatch(/Senator|Founded|Psychotic|Posts:|Re: Football/);
  });

  it("a thread's quotes of other posts are left out (XenForo, Invision, phpBB, FluxBB markup); a post's quote of an email stays", () => {
    const opening = 'My tide gauge on the north pier reads about a foot low whenever the wind has been in the west for a day, and the harbour office cannot say why.';
    const quotes = [
      `<blockquote data-quote="sailor1" data-source="post: 11" class="bbCodeBlock bbCodeBlock--quote"><div class="bbCodeBlock-title">sailor1 said:</div><div class="bbCodeBlock-content">${opening}</div></blockquote>`,
      `<blockquote class="ipsQuote" data-ipsquote=""><div class="ipsQuote_citation">On 3/1/2024 at 5:29 PM, sailor1 said:</div><div class="ipsQuote_contents"><p>${opening}</p></div></blockquote>`,
      `<blockquote><div><cite><a href="./memberlist.php?u=1">sailor1</a> wrote: <a href="./viewtopic.php?p=11#p11">↑</a> Tue Mar 01, 2024</cite>${opening}</div></blockquote>`,
      `<div class="quotebox"><cite>sailor1 wrote:</cite><blockquote><div><p>${opening}</p></div></blockquote></div>`,
    ];
    const email = 'I am writing to tell you that the harbour office will replace every gauge on the pier this winter, at no cost to the clubs that use them.';
    const replies = [
      'The stilling well silts up after a westerly blow; clear it and the reading comes back.',
      'Same at our club: a longer inlet pipe fixed it for good.',
      'Ours was the float, stuck on a barnacle. Worth a look before anything else.',
      `The office wrote to every club this morning:</p><blockquote class="blockquote"><p>${email}</p></blockquote><p>So it may not matter for long.`,
    ];
    const post = (i: number, author: string, body: string) => `<article class="message"><h4 class="message-name"><a href="/members/${author}">${author}</a></h4><div class="message-content"><div class="bbWrapper">${body}</div></div></article>`;
    const html = `<!doctype html><html><head><title>Gauge reads low</title></head><body>${chrome}<main><h1>Tide gauge reads low in a westerly</h1><div class="block-body">${post(1, 'sailor1', `<p>${opening}</p>`)}${replies.map((r, i) => post(i + 2, `crew${i + 2}`, `${quotes[i]}<p>${r}</p>`)).join('')}</div></main>${footer}</body></html>`;
    const out = md(html, 'https://boards.example/threads/gauge-reads-low.4411/');
    for (const r of ['stilling well silts up', 'longer inlet pipe', 'stuck on a barnacle', 'wrote to every club', 'replace every gauge on the pier']) expect(out).toContain(r);
    // The opening post once, in its own post; no quote of it and no citation line.
    expect(out.split('reads about a foot low').length - 1).toBe(1);
    expect(out).not.toMatch(/said:|wrote:/);
  });

  it("a XenForo thread's boxes alike with the posts' (div.block) are not posts: its similar threads and log-in prompt go; an Invision signature named by data-role goes", () => {
    const texts = [
      'Since I rinsed the filter sponge under the tap, the nitrite test shows 0.5 mg/l every evening and the neon tetras hide behind the wood.',
      'Tap water kills the bacteria in the sponge: rinse it in tank water next time, and dose a bottled starter for a week.',
      'Agreed, and feed every other day until the nitrite reads zero again; a partial water change each morning helps.',
    ];
    const post = (i: number, body: string) => `<article class="message message--post"><div class="message-inner"><h4 class="message-name"><a href="/members/u${i}">member${i}</a></h4><div class="message-content"><div class="bbWrapper">${body}</div></div>${i === 2 ? '<div data-role="memberSignature" class="ipsBorder_top"><p>Wer misst, misst Mist, wer nicht misst, weiß gar nichts.</p></div>' : ''}</div></article>`;
    const similar = ['Ammonia spike after cleaning the filter with tap water', 'How long to cycle a 60 L tank without fish?', 'External filter noisy after priming, normal?'];
    const html = `<!doctype html><html><head><title>Nitrite after filter cleaning</title></head><body>${chrome}<main><h1>Nitrite after filter cleaning</h1>
      <div class="block block--messages"><div class="block-container"><div class="block-body">${texts.map((t, i) => post(i + 1, `<p>${t}</p>`)).join('')}</div></div></div>
      <div class="block js-quickReplyLoginBlock"><div class="block-container"><div class="block-body"><div class="blockMessage">You must log in or register to reply here.</div><a href="/login/" class="button">Log in</a> <a href="/register/" class="button">Register</a></div></div></div>
      <div class="block block--similarThreads"><div class="block-container"><h3 class="block-minorHeader">Similar threads</h3><div class="block-body">${similar.map((t, i) => `<div class="structItem"><div class="structItem-title"><a href="/threads/t${i}.${100 + i}/">${t}</a></div><ul class="structItem-parts"><li><a href="/members/m${i}">m${i}</a></li><li>Nov 30, 2023</li></ul></div>`).join('')}</div></div></div>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://forum.example/threads/nitrite-after-filter-cleaning.88101/');
    for (const t of ['neon tetras hide', 'rinse it in tank water', 'partial water change each morning', 'member3']) expect(out).toContain(t);
    expect(out).not.toMatch(/Ammonia spike|cycle a 60 L|noisy after priming|Similar threads|log in or register|Wer misst/);
  });

  it("a reply's preview of the post it answers (NodeBB writes the parent post's text in each reply, clamped to a line by style) is written once", () => {
    const opening = ['<p>The first release candidate of version four is out: bug fixes and stability work since the last beta, and a soft feature freeze from today.</p>', '<p>Please try it on a copy of your forum and tell us what breaks before the final release.</p>'].join('');
    const replies = ['Upgraded our test forum last night and the migration ran in four minutes.', 'Federation with the other servers seems broken since the upgrade, posts do not arrive.', 'Same here, it started after the second migration step, a log is attached below.'];
    const post = (i: number, author: string, parent: string, body: string) =>
      `<li component="post" data-index="${i}"><div class="post-header"><a href="/user/${author}">${author}</a> <span class="timeago" title="2024-11-2${i}">November 2${i}, 2024</span></div>${parent ? `<div component="post/parent" class="d-flex"><a href="/user/julian">julian</a><div component="post/parent/content" class="text-muted line-clamp-1">${parent}</div></div>` : ''}<div class="content" component="post/content" itemprop="text">${body}</div></li>`;
    const html = `<!doctype html><html><head><title>RC1 of version 4</title></head><body>${chrome}<main><h1>RC1 of version 4</h1><ul component="topic" class="posts">${post(0, 'julian', '', opening)}${replies.map((r, i) => post(i + 1, `member${i + 1}`, opening, `<p>${r}</p>`)).join('')}</ul></main>${footer}</body></html>`;
    const out = md(html, 'https://community.example/topic/18427/rc1-of-version-4');
    for (const r of [...replies, 'soft feature freeze']) expect(out).toContain(r.slice(0, 40));
    expect(out.split('soft feature freeze').length - 1).toBe(1);
  });

  it("a thread's posts without their furniture: post numbers, counters, the poster's status and stats, action links, edit notices", () => {
    // Edit notices as phpBB, vBulletin and XenForo write them.
    const edits = [
      '<div class="notice">Last edited by <a href="/u/1">sailor1</a> on Tue Aug 27, 2019 10:03 pm, edited 108 times in total.</div>',
      '<div class="smallfont">Last edited by sailor2; 03-05-2024 at 10:12 AM.</div>',
      '<div class="message-lastEdit">Last edited: Mar 5, 2024</div>',
    ];
    const texts = [
      'The tide gauge on the north pier reads about a foot low whenever the wind has been in the west for a day or more, and the harbour office cannot say why.',
      'The stilling well silts up after a westerly blow; clear it and the reading comes back within a tide or two.',
      'Same at our club: a longer inlet pipe fixed it for good, and we have had no trouble since the spring.',
    ];
    const post = (i: number, text: string) => `<article class="message"><div class="message-user"><h4><a href="/members/u${i}">sailor${i}</a></h4><div class="status">Offline</div>
      <dl class="pairs"><dt>Messages:</dt><dd>1,20${i}</dd></dl><div class="badge">2${i},553 posts</div><div class="badge">51${i} helpful votes</div></div>
      <div class="message-main"><ul class="message-attribution"><li><time>Mar ${i}, 2024</time></li><li><a href="/posts/${i}">#${i}</a></li></ul>
      <div class="bbWrapper">${text}</div>${edits[i - 1]}<div class="message-actions"><a href="/report/${i}">Report inappropriate content</a> <a href="/reply/${i}">Reply</a></div><div class="reactions">1${i}</div></div></article>`;
    const html = `<!doctype html><html><head><title>Gauge reads low</title></head><body>${chrome}<main><h1>Tide gauge reads low in a westerly</h1><div class="block-body">${texts.map((t, i) => post(i + 1, t)).join('')}</div></main>${footer}</body></html>`;
    const out = md(html, 'https://boards.example/threads/gauge-reads-low.4411/');
    for (const part of ['reads about a foot low', 'stilling well silts up', 'longer inlet pipe', 'sailor2', 'Mar 3, 2024']) expect(out).toContain(part);
    expect(out).not.toMatch(/Offline|Messages:|1,20\d|posts|helpful votes|#\d|Report inappropriate|Reply|\b1\d\b|Last edited/);
  });

  it("a Q&A page's question and answers without their posters' reputation and badge lines or their 'answered' lines", () => {
    const card = (verb: string, i: number) => `<div class="post-signature"><div class="user-info"><div class="user-action-time">${verb} Feb ${i}, 2014 at 13:2${i}</div>
      <div class="user-details"><a href="/users/${i}/sailor${i}">sailor${i}</a><div class="-flair"><span class="reputation-score">2,16${i}</span><span>4 gold badges</span><span> 20 silver badges</span><span> 49 bronze badges</span></div></div></div></div>`;
    const answer = (i: number, text: string) => `<div class="answer" itemprop="suggestedAnswer" itemscope itemtype="https://schema.org/Answer"><div class="js-vote-count">1${i}</div><div class="s-prose" itemprop="text"><p>${text}</p></div>${card('answered', i)}</div>`;
    const html = `<!doctype html><html><head><title>Why does the gauge read low?</title></head><body>${chrome}<main itemscope itemtype="https://schema.org/QAPage"><div itemprop="mainEntity" itemscope itemtype="https://schema.org/Question"><h1 itemprop="name">Why does the tide gauge read low in a westerly?</h1>
      <div class="s-prose" itemprop="text"><p>The gauge on the north pier reads about a foot low whenever the wind has been in the west for a day or more, and the harbour office cannot say why.</p></div>${card('asked', 1)}
      ${answer(2, 'The stilling well silts up after a westerly blow; clear it and the reading comes back within a tide or two, as the float can move freely again.')}
      ${answer(3, 'A longer inlet pipe fixed it at our club: the silt settles before it reaches the well, and we have had no trouble since the spring.')}</div></main>${footer}</body></html>`;
    const out = md(html, 'https://harbour.stackexchange.example/questions/4411/why-does-the-gauge-read-low');
    for (const part of ['reads about a foot low', 'stilling well silts up', 'longer inlet pipe']) expect(out).toContain(part);
    expect(out).not.toMatch(/badges|2,16\d|answered Feb|asked Feb/);
  });

  it("a thread is told by its own URL's path, not by a <base href> at the site's root; a XenForo 1 post's own text stays (its blockquote is named SelectQuoteContainer)", () => {
    const texts = [
      'The tide gauge on the north pier reads about a foot low whenever the wind has been in the west for a day or more, and the harbour office cannot say why.',
      'The stilling well silts up after a westerly blow; clear it and the reading comes back within a tide or two.',
      'Same at our club: a longer inlet pipe fixed it for good, and we have had no trouble since the spring.',
      'Ours was the float, stuck on a barnacle. Worth a look before anything else, it takes ten minutes.',
      'Thanks all, the office will clear the well next week and I will report back here.',
    ];
    const post = (i: number, text: string) => `<li id="post-${i}" class="message" data-author="sailor${i}"><div class="messageUserInfo"><a href="members/sailor${i}.${i}/">sailor${i}</a></div>
      <div class="messageInfo primaryContent"><div class="messageContent"><article><blockquote class="messageText SelectQuoteContainer ugc baseHtml">${text}</blockquote></article></div>
      <div class="messageMeta"><a href="threads/gauge.4411/#post-${i}" class="datePermalink">Mar ${i}, 2024</a> <a href="posts/${i}/like" class="LikeLink">Like</a></div></div></li>`;
    const html = `<!doctype html><html><head><base href="https://boards.example/"><title>Gauge reads low</title></head><body>${chrome}<div id="content"><h1>Tide gauge reads low in a westerly</h1>
      <ol class="messageList" id="messageList">${texts.map((t, i) => post(i + 1, t)).join('')}</ol></div>${footer}</body></html>`;
    const page = parsePage(load(html), 'https://boards.example/threads/gauge-reads-low.4411/', { text: false, links: false });
    expect(page.metadata.page_kind).toBe('forum');
    for (const t of texts) expect(page.markdown).toContain(t.slice(0, 40));
  });

  it('skip links ("Skip to main content", "Skip to product list", "Zum Inhalt springen") are not content on a grid, a landing page or a story', () => {
    const skip = (href: string, text: string) => `<a class="skip-btn" href="#${href}">${text}</a>`;
    const card = (i: number) => `<li class="product-card"><a href="/p/${i}"><img src="/i${i}.jpg" alt=""><h3>Bookcase model ${i}, white, 80x28x202 cm</h3></a><span class="price">$${50 + i}.00</span></li>`;
    const cards = `<ul class="products" id="results">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul>`;
    const grid = `<body>${skip('main', 'Skip to main content')}<main id="main"><h1>Bookcases</h1><p>Shelving furniture for every room.</p>${skip('results', 'Skip to product list')}${cards}<div class="carousel">${skip('after', 'Skip listing')}${cards}</div></main></body>`;
    const landing = `<body><main id="main"><section class="hero"><h1>Crossings made simple</h1>${skip('plans', 'Zum Inhalt springen')}<p>We plan your passage across the bay, book your berth and brief your crew the evening before you sail.</p></section><section class="features"><h2>What we do</h2><p>Route planning for every tide, with timings, waypoints and bail-out harbours drawn on a plan you keep.</p></section></main></body>`;
    const story = `<body><article id="main"><h1>The tide tables</h1>${skip('notes', 'Skip to the notes')}<p>${'High water comes fifty minutes later each day, and the spring tides follow the full and the new moon by a day or two. '.repeat(4)}</p></article></body>`;
    for (const [html, url, shown] of [[grid, 'https://shop.example/cat/bookcases/', 'Bookcase model 7'], [landing, 'https://crossings.example/services/', 'Route planning'], [story, 'https://news.example/2024/05/tides', 'High water']]) {
      const out = md(html, url);
      expect(out).toContain(shown);
      expect(out).not.toMatch(/Skip to|Skip listing|Inhalt springen/);
    }
  });

  it('links back up the page ("Back to Project" after every entry, a heading\'s "top", "↑") are not content; a link to another page saying "Back to …" is', () => {
    const entry = (i: number) => `<h3>Beach house ${i}</h3><p>Firm ${i} Architects, a house on the dunes with a timber deck and a roof that turns its back to the wind.</p><a href="#project">Back to Project</a>`;
    const html = `<body><main id="project"><h1>Best of year: projects</h1><h2>Houses <a href="#top_of_page">top</a></h2>${[1, 2, 3, 4, 5, 6].map(entry).join('')}<p><a href="#project">↑</a></p><p>Read how the jury chose them: <a href="/jury">Back to basics</a>.</p></main></body>`;
    const out = md(html, 'https://design.example/awards/best-of-year/');
    expect(out).toContain('Firm 6 Architects');
    expect(out).toMatch(/^## Houses$/m);
    expect(out).not.toMatch(/Back to Project|↑/);
    expect(out).toContain('[Back to basics](https://design.example/jury)');
  });

  it('a small form beside an item or between sections (notify me, newsletter): its labels and lines stay out', () => {
    const notify = '<form class="notify"><h3>Notify me when back in stock</h3><p>Once limited colours sell out, they are gone for good.</p><label>Email <input type="email" name="email"></label><p>You can opt out any time. <a href="/privacy">Privacy Policy</a></p><p class="ok">We got your info, and we are rooting for you.</p></form>';
    const product = `<!doctype html><html><head><title>Wool Runner</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Wool Runner","offers":{"@type":"Offer","price":"110","priceCurrency":"USD"}}</script></head><body><main>
      <div class="product"><h1>Wool Runner</h1><p class="price">$110</p>${notify}
      <div class="details"><h2>The details</h2><p>A true original: soft merino wool with cloud-like comfort, a sugarcane-based midsole for all-day wear, and laces made from recycled bottles.</p><h2>Wash and care</h2><p>Machine washable: remove the insoles and laces and wash them separately, then let the shoes air dry.</p></div></div></main></body></html>`;
    const out = md(product, 'https://shop.example/products/wool-runner');
    expect(out).toContain('cloud-like comfort');
    expect(out).toContain('Machine washable');
    expect(out).not.toMatch(/Notify me|opt out any time|rooting for you/);
    const landing = `<!doctype html><html><head><title>Crossings</title></head><body><main>
      <section class="hero"><h1>Crossings made simple</h1><p>We plan your passage across the bay, book your berth and brief your crew the evening before you sail.</p></section>
      <section class="features"><h2>What we do</h2><p>Route planning for every tide: we read the tables, the forecast and the notices to mariners, and draw a plan with its waypoints.</p></section>
      <section class="signup"><form action="/subscribe"><h2>Tide notes, monthly</h2><input type="email" placeholder="Your email"><button>Subscribe</button><p>No spam, unsubscribe any time.</p></form></section>
      <section class="faq"><h2>Questions</h2><h3>Can I cancel?</h3><p>Yes, up to a day before, at no cost, and we refund the whole fee.</p></section></main></body></html>`;
    const page = md(landing, 'https://crossings.example/services/');
    expect(page).toContain('Route planning for every tide');
    expect(page).toContain('we refund the whole fee');
    expect(page).not.toMatch(/Tide notes, monthly|unsubscribe any time/);
  });

  it("a grid whose cards outweigh the rest: the category's title with them, not its count and sort lines", () => {
    const card = (i: number) => `<li class="tile"><a href="/p/${i}"><img src="/i${i}.jpg" alt=""><span class="name">Approach shoe model ${i}, sticky rubber, lace-up</span></a><span class="price">$${90 + i}.00</span><span class="rating">${10 + i} reviews</span></li>`;
    const html = `<!doctype html><html><head><title>Climbing shoes</title></head><body><main><div class="plp"><div class="plp-head"><p class="status">loaded 153 results</p><h1>Climbing Shoes</h1><span>(153 products)</span></div>
      <div class="toolbar"><span>Products (153)</span><span>Sort: Best Match</span></div><ul class="tiles">${Array.from({ length: 12 }, (_, i) => card(i)).join('')}</ul><p class="range">1–30 of 153 products</p></div></main></body></html>`;
    const out = md(html, 'https://shop.example/c/climbing-shoes');
    expect(out).toContain('# Climbing Shoes');
    expect(out).toContain('Approach shoe model 11');
    expect(out).not.toMatch(/loaded 153|\(153 products\)|Products \(153\)|Sort: Best|1–30 of 153/);
    // The cards selected alone (the title sits beside them): the title joins them.
    const bare = md(`<body><main><h1>Bookcases</h1><ul class="products">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul></main></body>`, 'https://shop.example/cat/bookcases/');
    expect(bare).toMatch(/^# Bookcases\n/);
    expect(bare).toContain('Approach shoe model 7');
  });

  it('text for screen readers only (a `clipped` copy of a price or title beside the shown one) is not read twice; a `clipped-text` excerpt is shown text', () => {
    const html = `<!doctype html><html><head><title>DID 520 chain</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"DID 520 gold chain","offers":{"@type":"Offer","price":"163.12","priceCurrency":"EUR"}}</script></head><body><main><div class="item">
      <h1><span aria-hidden="true">DID 520 gold chain, 104 links</span><span class="clipped">DID 520 gold chain, 104 links</span></h1>
      <div class="price"><span class="bold">EUR 163.12<span class="clipped">EUR 163.12</span></span></div>
      <div class="desc"><p>A gold 520-pitch chain with 104 links, X-ring sealed, for motorbikes of 600 to 1000 cc, sold with its rivet link and a spare clip.</p>
      <p class="clipped-text">Condition: new, in its box, never fitted, shipped from Milan within two working days of payment.</p></div></div></main></body></html>`;
    const out = md(html, 'https://shop.example/itm/296607459180');
    expect(out.split('EUR 163.12').length - 1).toBe(1);
    expect(out).toContain('X-ring sealed');
    expect(out).toContain('never fitted');
  });
  it("a task list (GitHub's, a markdown renderer's: a disabled box before each item) stays in the content: its boxes are not a form", () => {
    const tasks = md(`<body><article><h1>Release plan</h1><p>${'What is left before the release of the new tide tables, item by item, as agreed at the harbour meeting. '.repeat(4)}</p><ul>${['Check the spring tides', 'Print the pocket tables', 'Send the tables to the chandlers'].map((t) => `<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled> ${t}</li>`).join('')}</ul></article></body>`, 'https://notes.example/release');
    expect(tasks).toContain('Print the pocket tables');
  });
  it("a grid's labels for screen readers beside shown text ('Regular price') are not content; a screen-reader price whose shown copy is hidden from assistive technology stays", () => {
    const card = (i: number) => `<li class="card"><a href="/products/lamp-${i}"><img src="/l${i}.jpg" alt=""><h3>Storm lamp ${i}</h3><span class="sr-only">Storm lamp ${i}, a brass hurricane lamp that burns paraffin for twelve hours</span></a>
      <div class="price"><span class="visually-hidden">Regular price</span> <span class="price-item">$${40 + i}.00</span></div>
      <span class="price"><del aria-hidden="true">$${90 + i}.00</del> <span class="screen-reader-text">Original price was: $${90 + i}.00.</span><small>Excl. freight</small></span></li>`;
    const html = `<!doctype html><html><head><title>Lamps</title></head><body>${chrome}<main><h1>Lamps</h1><ul class="product-grid">${Array.from({ length: 12 }, (_, i) => card(i)).join('')}</ul></main>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/collections/lamps');
    expect(out).toContain('Storm lamp 11');
    expect(out).toContain('$51.00');
    expect(out).toContain('Original price was: $101.00');
    expect(out).not.toMatch(/Regular price|burns paraffin/);
  });
  it("a product page: the store's lines before the item's name (a slogan, a phone line, a log-in line) are not the item's content; its picture, price and description are", () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Roadcase for four lights","offers":{"@type":"Offer","price":"1772.00","priceCurrency":"USD"}}</script>';
    const html = `<!doctype html><html><head><title>Roadcase</title>${ld}</head><body><div class="page">
      <div class="strip"><span>The Professional's Source Since 1973</span> <span>Ask our experts 212-444-6615</span> <span>Hello, log in to your account and orders</span></div>
      <div class="pdp"><div class="gallery"><img src="/case.jpg" alt=""></div>
      <div class="buy"><h1>Roadcase for four lights</h1><p>$1,772.00</p><p>Expected availability: 2-4 weeks</p><button>Add to cart</button></div>
      <div class="desc"><h2>Overview</h2><p>A flight case with foam inserts for four retro stage lights, with recessed handles, butterfly latches and castors, built to survive a touring season.</p></div></div></div></body></html>`;
    const out = md(html, 'https://shop.example/c/product/1825729-REG/roadcase.html');
    for (const part of ['](https://shop.example/case.jpg)', '# Roadcase for four lights', '$1,772.00', 'butterfly latches']) expect(out).toContain(part);
    expect(out).not.toMatch(/Source Since 1973|Ask our experts|log in to your account/);
  });
  it("a grid of two short cards that cleaning leaves bare: the cards, not the page's menus and footer with them", () => {
    // Each card (a title link, a line, a price, a "See details" link) is link-heavy furniture to
    // the cleaner, and so is the "Shop all" line: nothing is left of the selection. The fallback
    // is what the page shows beside its chrome, not the whole page with its header and footer.
    const menu = ['Skincare', 'Makeup', 'Balms', 'Fragrance', 'Body', 'Sets', 'Stores', 'Log in'].map((w) => `<li><a href="/collections/${w}">${w} menu</a></li>`).join('');
    const card = (n: string, line: string, price: string) => `<li class="collection__item"><article class="pi"><a href="/products/${n}"><img src="/${n}.png" alt="${n}"></a><div class="pi__details"><h3 class="pi__title"><a href="/products/${n}">${n}</a></h3><p>${line}</p><span class="price">${price}</span><a href="/products/${n}">See details</a></div></article></li>`;
    const html = `<!doctype html><html><head><title>Sets</title></head><body><header><a href="#main">Skip to main</a><nav>${menu}</nav></header>
      <main id="main"><section class="collection"><ul class="collection__list">${card('The Super Pack', 'All three serums', '£88')}${card('Balm Dotcom Trio', 'Original formula', '£42')}</ul>
      <div class="more"><a href="/collections/all">Shop all our sets</a></div></section></main>
      <footer><nav><a href="/privacy">Privacy policy</a> <a href="/terms">Terms of sale</a></nav></footer></body></html>`;
    const out = md(html, 'https://shop.example/collections/sets');
    for (const part of ['The Super Pack', 'All three serums', '£88', 'Balm Dotcom Trio', '£42']) expect(out).toContain(part);
    expect(out).not.toMatch(/Skip to main|menu\]|Privacy policy|Terms of sale/);
  });
  it("a grid whose longest prose is its FAQ (the selection): its priced cards are the content too, not the FAQ alone", () => {
    // Link-only cards score low as prose, and the FAQ is the page's one <article>: the selection is
    // the FAQ, which holds over 40% of the page's sections, so the sections rule did not apply.
    const card = (i: number) => `<li class="product-cell"><a href="/p/lamp-${i}"><img src="/l${i}.jpg" alt=""></a><a class="title" href="/p/lamp-${i}">Deck lamp ${i}, brass housing, 12 V, sealed to IP67</a><span class="price">$${40 + i}.99</span></li>`;
    const answer = (q: string) => `<h3>${q}</h3><p>Deck lamps are rated for spray and rain, and every lamp we sell carries the marine mark on its base. Fit them with the gasket that comes in the box, keep the contacts greased once a season, and they will outlast the boat's first paint job; we keep spare gaskets and bulbs for every model in stock for ten years after it leaves the catalogue.</p>`;
    const html = `<!doctype html><html><head><title>Deck lamps</title></head><body>${chrome}<div class="page"><div class="listing">
      <h1>Deck lamps</h1>
      <ul class="product-grid">${Array.from({ length: 30 }, (_, i) => card(i + 1)).join('')}</ul></div>
      <article class="faq"><h2>Deck lamp questions</h2>${['Are they waterproof?', 'Which bulbs fit?', 'Can I fit one myself?', 'Do you sell spares?', 'Are they dimmable?'].map(answer).join('')}</article>
    </div>${footer}</body></html>`;
    const out = md(html, 'https://chandlery.example/collections/deck-lamps');
    for (let i = 1; i <= 30; i++) expect(out).toContain(`Deck lamp ${i},`);
    expect(out).toContain('$70.99');
    expect(out).toContain('marine mark');
    expect(out).not.toMatch(/About us|Privacy policy/);
  });
  it("a Q&A thread that declares its answers in JSON-LD but shows them as comments: every reply is content", () => {
    // No block is marked as an answer (class, id or microdata): the comment-classed blocks are the
    // answers the JSON-LD declares, not remarks on them.
    const ld = JSON.stringify({ '@context': 'https://schema.org', '@type': 'QAPage', mainEntity: { '@type': 'Question', name: 'Is a winter passage worth it?', answerCount: 6, suggestedAnswer: [1, 2, 3, 4, 5, 6].map((i) => ({ '@type': 'Answer', text: `reply ${i}` })) } });
    const replies = [
      'Reply one: we crossed in January twice, and both times the light and the empty harbours made up for the cold; plan for short days and take a heater.',
      'Reply two: only with a crew that has done it before, because the weather windows are short and the swell in the channel builds faster than the forecast says.',
      'Reply three: the berths are half price from November to March, and most harbour offices stay open, but the fuel docks keep shorter hours, so fill up early.',
      'Reply four: do it, but keep a day or two in hand at each end; we waited three days in Cherbourg for the wind to drop and never regretted it.',
      'Reply five: reef early and often, the winter gusts come down off the cliffs without warning, and the water is cold enough that nobody wants to go in.',
      'Reply six: we went in February and had the best sail of the year, flat water and a steady northerly, but we also spent a week stuck before it.',
    ];
    const more = ' Whatever you decide, tell the harbour office at the other end when you leave, keep an eye on the inshore forecast every six hours, and carry more warm layers than you think you could ever need.';
    const comment = (i: number, text: string) => `<article id="comment-${i}" class="js-comment comment-overall-layer"><div class="comment comment-container"><div class="post-header"><a href="/u/sailor${i}">sailor${i}</a> <time datetime="2024-01-0${i}">Jan ${i}</time></div><div class="comment-content"><p>${text}${more}</p></div></div></article>`;
    const html = `<!doctype html><html><head><title>Is a winter passage worth it?</title><script type="application/ld+json">${ld}</script></head><body>${chrome}<main>
      <div class="question"><h1>Is a winter passage worth it?</h1><div class="post-body"><p>Dear fellow sailors, I am thinking of taking the boat across the channel in winter this year rather than waiting for the spring, and I would like to hear from anyone who has done it: was it worth the cold, the short days and the weather, and what would you do differently?</p></div></div>
      <section class="comments">${replies.map((t, i) => comment(i + 1, t)).join('')}</section>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://sailing.example/forum/passages/winter-passage-worth-it');
    for (const part of ['Dear fellow sailors', 'Reply one', 'Reply two', 'Reply three', 'Reply four', 'Reply five', 'Reply six']) expect(out).toContain(part);
    expect(out).not.toMatch(/About us|Privacy policy/);
  });
  it("a grid of two alike cards: both are written whole, not one cleaned as furniture beside its twin", () => {
    // Each card's details (a title link, a line, a price, a "See details" link) are link-heavy and
    // about half the content: the one just under half was cleaned, its twin kept.
    const card = (n: string, line: string, price: string) => `<li class="collection__item"><article class="pi"><a href="/products/${n}"><img src="/${n}.png" alt="${n}"></a><div class="pi__details"><h3 class="pi__title"><a href="/products/${n}">${n}</a></h3><p>${line}</p><span class="price">${price}</span><a href="/products/${n}">See details</a></div></article></li>`;
    const html = `<!doctype html><html><head><title>Sets</title></head><body>${chrome}
      <main id="main"><section class="collection"><ul class="collection__list">${card('The Super Pack', 'All three serums', '£88')}${card('Balm Dotcom Trio', 'Original formula', '£42')}</ul></section></main>
      ${footer}</body></html>`;
    const out = md(html, 'https://shop.example/collections/sets');
    for (const part of ['### [The Super Pack]', 'All three serums', '£88', '### [Balm Dotcom Trio]', 'Original formula', '£42']) expect(out).toContain(part);
  });

  // This page reaches the post through its kind (/post/<number>); the opening-post area rule
  // (main-content.ts openingPostBefore) is held by a WCXB development page (lemmy.ml), not here.
  it("a thread whose selection is its comment tree, its opening post in a block named for the post above it: the post with the replies", () => {
    const comment = (i: number) => `<li class="comment"><article class="comment-node" id="comment-${i}"><div class="meta"><a class="person-listing" href="/u/user${i}">user${i}</a> <span class="moment-time">${i} hours ago</span></div><div class="comment-content"><p>Reply ${i}: a pothos by the window did well for me, but the calathea needed a grow light in winter, and the snake plant never noticed the difference at all, whatever the season.</p></div></article></li>`;
    const post = '<div class="post-listing"><h1>Lemmy Development Update 2024-10-04</h1><article id="postContent" class="card"><div class="md-div"><p>Here is our regular update on what we worked on in the past two weeks, so that users can follow development without reading every pull request.</p><ul>' + Array.from({ length: 6 }, (_, i) => `<li>Change ${i}: votes from remote instances are now checked against the local site settings before they count.</li>`).join('') + '</ul><p>If you like using it, consider donating to support its development.</p></div></article></div>';
    const html = `<!doctype html><html><head><title>Update</title><meta property="og:type" content="website"></head><body>${chrome}<main><div class="col">${post}<div class="comment-form"><textarea></textarea></div><div><ul class="comments">${[1, 2, 3, 4, 5, 6, 7, 8].map(comment).join('')}</ul></div></div></main>${footer}</body></html>`;
    const out = md(html, 'https://lemmy.example/post/21018364');
    expect(out).toContain('Change 5: votes from remote instances');
    expect(out).toContain('Reply 8');
  });
});
