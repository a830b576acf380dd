import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { classifyPage, declaresStory, kindSignals, PAGE_KINDS } from '../../../functions/core/content/page-kind.js';
import type { DomNode } from '../../../functions/core/content/dom.js';

// metadata.page_kind: the kind of page from its structure (page-kind.ts). Each page below is a
// small hand-written page of one kind, built the way such pages are (not copied from a site).
const kindOf = (html: string, url: string) => parsePage(load(html), url, { text: false, links: false, markdown: false }).metadata.page_kind;
const doc = (head: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>${head}</head><body>${body}</body></html>`;
const para = (i: number, topic: string) => `<p>${topic} ${i}: the harbour has kept records since 1820, and each year's entries describe the tides, the weather, the ships that called and the goods they carried, with notes on repairs to the quay.</p>`;
const nav = '<header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav></header>';

describe('page kind', () => {
  it('an article: one long run of prose declared as a story', () => {
    const html = doc('<meta property="og:type" content="article">', `${nav}<article><h1>The harbour records</h1>${[1, 2, 3, 4, 5, 6, 7, 8].map((i) => para(i, 'Record')).join('')}</article>`);
    expect(kindOf(html, 'https://news.example/2024/05/harbour-records')).toBe('article');
  });

  it("a store's product tiles written as <article>s (PrestaShop's product-miniature), each priced: a grid, not a news listing", () => {
    const tile = (i: number) => `<article class="product-miniature"><a href="/the-vert-${i}.html"><img src="/img/${i}.jpg" alt=""></a><h2 class="product-title"><a href="/the-vert-${i}.html">Thé vert numéro ${i}</a></h2><div class="product-price-and-shipping"><span class="price">${i + 5},90 €</span></div></article>`;
    const html = doc('', `${nav}<main><h1>Thés verts</h1><div class="products">${[1, 2, 3, 4, 5, 6, 7, 8].map(tile).join('')}</div></main>`);
    expect(kindOf(html, 'https://theiere.example/12-thes-verts')).toBe('collection');
  });

  it("a grid priced the Scandinavian way ('4 299,-', '1 295:-', '1.299,-') or in won and rubles is a grid", () => {
    const tile = (i: number, price: string) => `<li><article class="ProductCard"><a href="/p/jakke-${i}"><img src="/j${i}.jpg" alt=""><p class="brand">Bergtind</p><h3>Skalljakke modell ${i}</h3><span class="price">${price}</span></a></article></li>`;
    for (const price of ['4 299,-', '1 295:-', '1.299,-', '12,900원', '₩12,900', '9 490 ₽']) {
      const html = doc('', `${nav}<main><h1>Skalljakker</h1><ul class="grid">${Array.from({ length: 14 }, (_, i) => tile(i, price)).join('')}</ul></main>`);
      expect(kindOf(html, 'https://fjell.example/herre/jakker/skalljakker'), price).toBe('collection');
    }
  });

  it('an item page that declares nothing (no type, og:type or product path): a buy button beside a price', () => {
    const html = doc('', `${nav}<main><h1>Sturmfest Regenjacke</h1><p class="price">249,00 €</p><form><button type="submit">In den Warenkorb</button></form>${[1, 2, 3].map((i) => para(i, 'Detail')).join('')}</main>`);
    expect(kindOf(html, 'https://nordgrat.example/sturmfest-regenjacke.html')).toBe('product');
  });

  it("an issue tracker's issue (/issues/1842): its comments with code are a thread, not documentation", () => {
    const comment = (i: number) => `<div class="timeline-comment comment"><div class="timeline-comment-header"><a class="author" href="/u${i}">dev${i}</a> commented <relative-time datetime="2024-05-0${i}">May ${i}</relative-time></div><div class="comment-body markdown-body"><p>Comment ${i}: the watcher stops after the rename, and the log shows the old path.</p><pre><code>quarry watch --verbose ./src</code></pre></div></div>`;
    const html = doc('', `${nav}<main><h1>quarry watch stops after a directory rename #1842</h1>${[1, 2, 3, 4, 5, 6].map(comment).join('')}</main>`);
    expect(kindOf(html, 'https://code.example/quarry/quarry-cli/issues/1842')).toBe('forum');
  });

  it('a forum thread: posts with author and date lines, declared as a discussion', () => {
    const post = (i: number) => `<div class="post" itemscope itemtype="https://schema.org/Comment"><div class="post-meta"><span class="author">user${i}</span> <time datetime="2024-01-0${i}">Jan ${i}</time></div><div class="post-body"><p>Reply ${i}: I had the same problem with the gauge on the pier, it reads low when the wind is from the west.</p></div></div>`;
    const html = doc('', `${nav}<main><h1>Gauge reads low?</h1><div class="thread" itemscope itemtype="https://schema.org/DiscussionForumPosting">${[1, 2, 3, 4, 5, 6].map(post).join('')}</div></main>`);
    expect(kindOf(html, 'https://boards.example/threads/gauge-reads-low.4411/')).toBe('forum');
  });

  it('a thread told by a ShowTopic/viewtopic/showthread path, with or without the script extension, its words joined by dashes', () => {
    const post = (i: number) => `<div class="post"><div class="post-meta"><span class="author">user${i}</span> <span>Jan ${i}, 2026</span></div><p>Reply ${i}: we went in January too and the trains were quiet.</p></div>`;
    const html = doc('', `${nav}<main><h1>Tips from a first-time visitor</h1>${[1, 2, 3, 4, 5, 6].map(post).join('')}</main>`);
    for (const url of ['https://travel.example/ShowTopic-g294232-i525-k15476375-Tips_from_a_first_time_visitor.html', 'https://boards.example/viewtopic.php?t=12', 'https://boards.example/showthread.php/881-Gauge']) expect(kindOf(html, url)).toBe('forum');
  });

  it('a page served from another address reads its path signs from the address it declares (canonical, else og:url)', () => {
    // A thread known by its path (/threads/…) and its posts, no schema.org types: a harness or a
    // mirror serving the saved page elsewhere still gets a forum.
    const post = (i: number) => `<div class="post"><div class="post-meta"><span class="author">user${i}</span> <time datetime="2024-01-0${i}">Jan ${i}</time></div><div class="post-body"><p>Reply ${i}: I had the same problem with the gauge on the pier, it reads low when the wind is from the west.</p></div></div>`;
    const body = `${nav}<main><h1>Gauge reads low?</h1>${[1, 2, 3, 4, 5, 6].map(post).join('')}</main>`;
    const own = 'https://boards.example/threads/gauge-reads-low.4411/';
    const elsewhere = 'http://127.0.0.1:8080/saved-1.html';
    expect(kindOf(doc('', body), own)).toBe('forum');
    expect(kindOf(doc('', body), elsewhere)).not.toBe('forum');
    expect(kindOf(doc(`<link rel="canonical" href="${own}">`, body), elsewhere)).toBe('forum');
    expect(kindOf(doc(`<meta property="og:url" content="${own}">`, body), elsewhere)).toBe('forum');
    expect(kindOf(doc('<link rel="canonical" href="/threads/gauge-reads-low.4411/">', body), elsewhere)).toBe('forum');
  });

  it('a forum thread served in a <noscript> crawler view is a forum too', () => {
    const html = readFileSync(new URL('../../fixtures/content-kinds/discourse-noscript.html', import.meta.url), 'utf8');
    expect(kindOf(html, 'https://forum.example/t/which-tide-table-do-you-trust/4411')).toBe('forum');
  });

  it('a product: JSON-LD Product, one price, an add-to-cart button', () => {
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Brass tide clock","offers":{"@type":"Offer","price":"89.00","priceCurrency":"EUR"}}</script>';
    const html = doc(ld, `${nav}<main><h1>Brass tide clock</h1><p class="price">€89.00</p><button>Add to cart</button><div class="description"><p>A solid brass clock that shows the state of the tide, set once a month.</p></div></main>`);
    expect(kindOf(html, 'https://shop.example/products/brass-tide-clock')).toBe('product');
  });

  it("a product known by its path and its cart button, the button's label indented in the source", () => {
    // Indentation before the label must not use up the few characters a button's label is read to.
    const button = `<button type="submit" name="add">${'\n' + ' '.repeat(120)}<span>${'\n' + ' '.repeat(120)}Add to cart</span></button>`;
    const html = doc('', `${nav}<main><h1>Brass tide clock</h1><p class="price">€89.00</p><form action="/cart/add">${button}</form><div class="description"><p>A solid brass clock that shows the state of the tide, set once a month.</p></div></main>`);
    const root = load(html).root().get(0) as unknown as DomNode;
    expect(kindSignals(root).cartButtons).toBeGreaterThan(0);
    expect(kindOf(html, 'https://shop.example/products/brass-tide-clock')).toBe('product');
  });

  it('a collection: a grid of priced product cards beside filters', () => {
    const card = (i: number) => `<li class="product-card"><a href="/products/clock-${i}"><img src="/c${i}.jpg" alt=""><h3>Clock ${i}</h3></a><span class="price">$${20 + i}.00</span></li>`;
    const html = doc('', `${nav}<main><h1>Clocks</h1><aside class="filters"><h2>Filter</h2><label><input type="checkbox"> Brass</label></aside><ul class="product-grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ul></main>`);
    expect(kindOf(html, 'https://shop.example/collections/clocks')).toBe('collection');
  });

  it("a store's grid whose cards are classed as posts (WordPress's post-123 on every product) is a collection, not a thread; a thread's many post blocks still make a forum", () => {
    const card = (i: number) => `<li class="product type-product post-${4400 + i} status-publish instock"><a href="/shop/lamp-${i}"><img src="/l${i}.jpg" alt=""><h2>Storm lamp ${i}</h2><span class="price">$${40 + i}.00</span></a></li>`;
    const html = doc('', `${nav}<main><h1>Lamps</h1><ul class="products">${Array.from({ length: 44 }, (_, i) => card(i)).join('')}</ul></main>`);
    expect(kindOf(html, 'https://outfitter.example/')).not.toBe('forum');
    const post = (i: number) => `<div class="post post-${i}"><span class="author">sailor${i}</span><div class="post-body">Reply ${i}: same here.</div></div>`;
    expect(kindOf(doc('', `${nav}<main><h1>Gauge reads low?</h1>${Array.from({ length: 44 }, (_, i) => post(i)).join('')}</main>`), 'https://boards.example/')).toBe('forum');
  });

  it("an item's page with a buy button and many review blocks is a product, not a thread", () => {
    const review = (i: number) => `<div class="review post"><span class="author">reader${i}</span><div class="post-body">Review ${i}: a clear, practical book.</div></div>`;
    const body = `${nav}<main><h1>Small habits, large results</h1><p>Paperback, 320 pages.</p><button>Add to Cart</button>${Array.from({ length: 44 }, (_, i) => review(i)).join('')}</main>`;
    expect(kindOf(doc('', body), 'https://books.example/Small-Habits/dp/0735211299')).toBe('product');
  });

  it('a listing: many linked entries that are not products, little prose', () => {
    const item = (i: number) => `<div class="teaser"><h3><a href="/story-${i}">Story ${i} of the harbour</a></h3><span class="date">May ${i}</span></div>`;
    const html = doc('', `${nav}<main><h1>Latest</h1><div class="list">${Array.from({ length: 15 }, (_, i) => item(i + 1)).join('')}</div></main>`);
    expect(kindOf(html, 'https://harbour.example/latest')).toBe('listing');
  });

  it('documentation: code blocks under a docs path', () => {
    const html = doc('', `${nav}<div class="docs"><nav class="toc"><a href="#a">Install</a></nav><main><h1>Install</h1><p>Install the client with your package manager, then configure the endpoint.</p><pre><code class="language-bash">npm install tide-client</code></pre><pre><code class="language-js">const t = new Tide({ port: 'Brest' });</code></pre></main></div>`);
    expect(kindOf(html, 'https://tide.example/docs/install')).toBe('documentation');
  });

  it('a service page: hero, features, pricing, FAQ sections', () => {
    const section = (cls: string, h: string) => `<section class="${cls}"><h2>${h}</h2><p>We plan your crossing, book the berths and brief your crew.</p></section>`;
    const html = doc('', `${nav}<main>${section('hero', 'Crossings made simple')}${section('features', 'What we do')}${section('pricing', 'Plans')}${section('testimonials', 'What sailors say')}${section('faq', 'Questions')}</main>`);
    expect(kindOf(html, 'https://crossings.example/')).toBe('service');
  });

  it("a landing page whose offerings are linked cards is a service page when it names more landing blocks than it has cards; a listing's cards outnumber them", () => {
    // Twelve linked service cards, each a promo of a heading and a blurb, among a landing page's
    // hero, features, benefits, testimonials and CTA blocks (an AEM site names every block).
    const card = (i: number) => `<div class="feature-item"><a class="promo" href="/services/${i}"><h3>Service ${i}</h3><div class="promo-desc">We plan the crossing, book the berths and brief the crew.</div><span class="cta">Find out more</span></a></div>`;
    const blocks = ['hero', 'features', 'benefits', 'testimonials', 'cta', 'usp', 'clients', 'how-it-works', 'plans', 'faq', 'team', 'logos'].map((c) => `<section class="${c}"><h2>${c}</h2><p>Short text of the ${c} block.</p></section>`).join('');
    const html = doc('', `${nav}<main><h1>Our services</h1><div class="features">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</div>${blocks}</main>`);
    expect(kindOf(html, 'https://crossings.example/')).toBe('service');
  });

  it("a service page's FAQ marked up as microdata questions and answers is no thread; a question with its answers is", () => {
    const qa = (i: number) => `<div itemscope itemprop="mainEntity" itemtype="https://schema.org/Question"><h3 itemprop="name">Question ${i}: how long does a crossing take?</h3>
      <div itemscope itemprop="acceptedAnswer" itemtype="https://schema.org/Answer"><p itemprop="text">About four hours in good weather, longer against the tide.</p></div></div>`;
    const section = (cls: string, h: string) => `<section class="${cls}"><h2>${h}</h2><p>We plan your crossing, book the berths and brief your crew.</p></section>`;
    const faq = doc('', `${nav}<main>${section('hero', 'Crossings made simple')}${section('features', 'What we do')}${section('benefits', 'Why us')}<section class="faq"><h2>Questions</h2>${[1, 2, 3, 4, 5].map(qa).join('')}</section></main>`);
    expect(kindOf(faq, 'https://crossings.example/crossings/planning')).toBe('service');
    const answer = (i: number) => `<div itemscope itemtype="https://schema.org/Answer"><p itemprop="text">Answer ${i}: about four hours in good weather, longer against the tide.</p></div>`;
    const thread = doc('', `${nav}<main><div itemscope itemtype="https://schema.org/Question"><h1 itemprop="name">How long does a crossing take?</h1>${[1, 2, 3].map(answer).join('')}</div></main>`);
    expect(kindOf(thread, 'https://crossings.example/crossings/planning')).toBe('forum');
  });

  it('an empty document is other; every answer is one of the kinds API.md lists', () => {
    const s = kindSignals(load('<html><body></body></html>').root().get(0) as unknown as DomNode);
    expect(classifyPage(s, { url: 'https://x.example/' })).toBe('other');
    expect(PAGE_KINDS).toEqual(['article', 'forum', 'product', 'collection', 'listing', 'documentation', 'service', 'other']);
  });

  it("a blog's front page of story cards is a listing, though its JSON-LD graph names a post among the site's things", () => {
    const card = (i: number) => `<article class="post-card"><h2><a href="/engineering/harbour-post-${i}/">Harbour post number ${i}</a></h2><p>A short excerpt about harbour post ${i}.</p></article>`;
    const ld = '<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Harbour blog"},{"@type":"WebPage","name":"Home"},{"@type":"TechArticle","headline":"Featured post"},{"@type":"BlogPosting","headline":"Another post"}]}</script>';
    const html = doc(`<meta property="og:type" content="website">${ld}`, `${nav}<main><h1>Harbour blog</h1>${Array.from({ length: 8 }, (_, i) => card(i + 1)).join('')}</main>`);
    expect(kindOf(html, 'https://blog.harbour.example/')).toBe('listing');
  });

  it("a story's path names one (a slug, a date, a story under its section); a section's front or a blog's index does not", () => {
    // A document is classified once (with the address it was read from): a fresh one for each.
    const story = (url: string) => declaresStory(load(doc('', `${nav}<main><h1>Technology</h1>${para(1, 'Story')}</main>`))('body').get(0) as unknown as DomNode, { url });
    for (const url of ['https://news.example/news/articles/ckg8wvz427vo', 'https://x.example/blog/harbour-records', 'https://x.example/post/writingaireadydotnetcode', 'https://x.example/2024/05/harbour', 'https://x.example/news/uk-68012345'])
      expect(story(url), url).toBe(true);
    for (const url of ['https://news.example/news/technology', 'https://x.example/blog/', 'https://x.example/stories/world?page=2']) expect(story(url), url).toBe(false);
  });

  it('metadata: false leaves the kind null (no walk)', () => {
    expect(parsePage(load(doc('', '<p>x</p>')), 'https://x.example/', { metadata: false }).metadata.page_kind).toBeNull();
  });
  it("a services page whose only story sign is a CMS's og:type article: a service page, and a blog post there is still an article", () => {
    const body = `${nav}<main><h1>HR consulting</h1>${[1, 2, 3, 4].map((i) => para(i, 'Service')).join('')}<h2>FAQs</h2><p>Why would I use you?</p></main>`;
    const html = doc('<meta property="og:type" content="article"><script type="application/ld+json">{"@context":"https://schema.org","@type":"WebPage","name":"HR consulting"}</script>', body);
    expect(kindOf(html, 'https://firm.example/services/hr-consulting/')).toBe('service');
    expect(kindOf(html, 'https://firm.example/blog/hr-consulting/')).toBe('article');
    expect(kindOf(doc('<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"HR"}</script><meta property="og:type" content="article">', body), 'https://firm.example/services/hr-consulting/')).toBe('article');
  });

  it("a grid whose prices are written in parts, each in its own element (<span>$</span><span>42.00</span>, a split $ 119 00), is a grid", () => {
    const tile = (i: number, price: string) => `<li><div class="listing-card"><a href="/listing/${1000 + i}/journal-${i}"><img src="/il/${i}.jpg" alt=""><h3>Leather journal number ${i}</h3><p>Shop ${i}</p><p class="lc-price">${price}</p></a></div></li>`;
    for (const price of ['<span class="currency-symbol">$</span><span class="currency-value">42.00</span>', '<sup>$</sup><span>119</span><sup>00</sup>']) {
      const html = doc('<meta property="og:type" content="website">', `${nav}<main><h1>Leather Journal</h1><p>Hand-bound journals from independent bookbinders.</p><ol class="grid">${Array.from({ length: 10 }, (_, i) => tile(i, price)).join('')}</ol></main>`);
      expect(kindOf(html, 'https://market.example/market/leather_journal'), price).toBe('collection');
    }
  });

  it("an item's page under an item path with its buy button is the item's, however many priced carousels it shows", () => {
    const card = (i: number) => `<li class="carousel-card"><a href="/dp/B0${i}"><img src="/c${i}.jpg" alt=""><span>Other book ${i}</span></a><span class="a-price"><span>$</span><span>1${i}</span><span>99</span></span></li>`;
    const html = doc('', `${nav}<main><div id="centerCol"><h1 id="title">Atomic Routines: A Proven Way to Build Habits</h1><span class="a-price">$13.49</span>
      <div id="bookDescription">${para(1, 'Book')}${para(2, 'Book')}</div><form action="/cart/add"><input type="submit" value="Add to Cart"></form></div>
      <div class="a-carousel"><h2>Customers who bought this item also bought</h2><ol>${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ol></div>
      <div class="a-carousel"><h2>Products related to this item</h2><ol>${Array.from({ length: 8 }, (_, i) => card(i + 10)).join('')}</ol></div></main>`);
    expect(kindOf(html, 'https://shop.example/Atomic-Routines/dp/0735211299')).toBe('product');
  });

  it("a Khoros community thread (its /t5/…/td-p/… path) with its posts is a thread", () => {
    const post = (i: number) => `<div class="lia-message-view-display lia-component-forums-widget-message-view-two"><div class="lia-message-author-username"><a href="/t5/user/viewprofilepage/user-id/${i}">member${i}</a></div><span class="lia-message-posted-on"><span class="local-date">03-15-2024</span></span><div class="lia-message-body-content"><p>Post ${i}: my satellite keeps dropping to the 2.4 GHz backhaul after a firmware update, and the speed halves every evening around eight.</p></div></div>`;
    const html = doc('<meta property="og:type" content="article">', `${nav}<main><h1>Mesh satellite drops to 2.4 GHz backhaul</h1><div class="lia-component-message-list">${[1, 2, 3, 4, 5, 6].map(post).join('')}</div></main>`);
    expect(kindOf(html, 'https://community.example/t5/Wi-Fi-Home-Network/Mesh-satellite-drops-to-2-4-GHz-backhaul/td-p/284417')).toBe('forum');
  });

  it("a dealer's page of one car, declared a schema.org Car (a kind of Product) beside its AutoDealer, is an item's page", () => {
    const ld = '<script type="application/ld+json">[{"@context":"https://schema.org","@type":"Car","name":"2021 Subaru Outback Premium","vehicleIdentificationNumber":"4S4BTACC5M3123456","offers":{"@type":"Offer","price":"27488","priceCurrency":"USD"}},{"@context":"https://schema.org","@type":"AutoDealer","name":"Ridgeline Subaru"}]</script>';
    const html = doc(`${ld}<meta property="og:type" content="website">`, `${nav}<main><h1>Used 2021 Subaru Outback Premium</h1><p class="price">Internet Price $27,488</p><ul><li>Mileage: 31,204 mi</li><li>Engine: 2.5L Boxer H4</li><li>Transmission: CVT</li></ul>${para(1, 'Dealer comments')}</main>`);
    expect(kindOf(html, 'https://www.dealer.example/used/Subaru/2021-Subaru-Outback-4f2c7a1e.htm')).toBe('product');
  });

  it("a link aggregator's post under its number alone (/post/11823449) with its comment tree is a thread; a blog post under /post/ with a slug is not made one", () => {
    const comment = (i: number) => `<li class="comment"><article class="comment-node" id="comment-${i}"><a class="person-listing" href="/u/user${i}">user${i}</a> <span class="moment-time">${i} hours ago</span><div class="comment-content"><p>Reply ${i}: a pothos by the window did well for me, but the calathea needed a grow light in winter to keep its leaves.</p></div></article></li>`;
    const body = `${nav}<main><div class="post-listing"><h1>Which houseplants survive a north-facing window?</h1><article id="postContent"><p>My flat only has north-facing windows and everything I buy slowly dies. What actually works?</p></article></div><ul class="comments">${[1, 2, 3, 4, 5, 6].map(comment).join('')}</ul></main>`;
    expect(kindOf(doc('<meta property="og:type" content="website">', body), 'https://leafy.example/post/11823449')).toBe('forum');
    expect(kindOf(doc('<meta property="og:type" content="article">', body), 'https://blog.example/post/11823449')).not.toBe('forum');
  });

  it("an item's page under a product path whose buy button speaks Korean, Turkish or Russian ('장바구니 담기', 'Sepete Ekle', 'В корзину') is an item's page", () => {
    for (const label of ['장바구니 담기', 'Sepete Ekle', 'В корзину']) {
      const html = doc('', `${nav}<main><h2 class="prod-buy-header__title">Automatic milk frother MF-200</h2><div class="price">39,900원</div><button class="prod-cart-btn">${label}</button>${para(1, 'Detail')}${para(2, 'Detail')}${para(3, 'Detail')}</main>`);
      expect(kindOf(html, 'https://shop.example/vp/products/7123456789'), label).toBe('product');
    }
  });

  it("a grid whose prices show no currency but declare it by microdata (<meta itemprop=\"price\">, '59' and a raised '99') is a grid", () => {
    const item = (i: number) => `<li class="product-item"><a href="/p/koptelefoon-${i}/${9300000 + i}/"><img src="/k${i}.jpg" alt=""></a><a class="product-title" href="/p/koptelefoon-${i}/${9300000 + i}/">Draadloze koptelefoon model ${i}</a><div class="price-block"><meta itemprop="price" content="${50 + i}.99"><span class="promo-price">${50 + i}<sup>99</sup></span></div></li>`;
    const html = doc('<meta property="og:type" content="website">', `${nav}<main><h1>Draadloze koptelefoon</h1><ul class="product-list">${Array.from({ length: 10 }, (_, i) => item(i)).join('')}</ul></main>`);
    expect(kindOf(html, 'https://www.plein.example/nl/nl/s/?searchtext=draadloze+koptelefoon')).toBe('collection');
  });
});
