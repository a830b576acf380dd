import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

// Main content leaves out a section (two blocks or more) whose text repeats an earlier one's: the
// same description written for two screen sizes, a story rendered twice. Single paragraphs,
// quotes, code and a thread's posts may repeat on purpose and stay. A store's "people who viewed
// this item also viewed" section is not the item's content.
const md = (html: string, url = 'https://example.com/a', onlyMain = true) =>
  parsePage(load(html), url, { text: false, links: false, metadata: false, content: { onlyMainContent: onlyMain } }).markdown;
const count = (s: string, part: string) => s.split(part).length - 1;
const description =
  '<p>A wheel-thrown stoneware mug in a speckled white glaze, with a clear glazed interior and a wide handle.</p><p>Handmade in our studio by the river.</p><p>Volume: about 350 ml. Dishwasher and microwave safe.</p>';

describe('repeated sections', () => {
  it('a product description written twice, for small and large screens: once', () => {
    const html = `<!doctype html><html><head><title>Speckle mug</title></head><body><main><div class="product">
      <h1>Speckle mug</h1><p class="price">$60.00</p>
      <div class="product-description hidden-down-md">${description}</div>
      <button>Add to cart</button>
      <div class="product-description hidden-up-md">${description}</div>
    </div></main></body></html>`;
    const out = md(html, 'https://shop.example/products/speckle-mug');
    expect(count(out, 'wheel-thrown stoneware mug')).toBe(1);
    expect(count(out, 'Dishwasher and microwave safe')).toBe(1);
    expect(out).toContain('Speckle mug');
    // The whole page keeps both copies: only main content leaves repeats out.
    expect(count(md(html, 'https://shop.example/products/speckle-mug', false), 'wheel-thrown stoneware mug')).toBe(2);
  });

  it('keeps a paragraph that repeats on purpose, a quote of an earlier paragraph, and repeated code', () => {
    const terms = '<p>Offer valid for bookings made by 31 March; blackout dates apply and seats are limited on every route.</p>';
    const prose = (i: number) => `<p>Paragraph ${i} of the guide, long enough to be prose, with commas, details and several more words to count here.</p>`;
    const code = '<div class="example"><p>Install the package first, then call it with your key.</p><pre><code>npm install tidal\ntidal --key $KEY</code></pre></div>';
    const html = `<body><article><h1>Two offers</h1>${prose(1)}<h2>Winter</h2>${terms}${prose(2)}<h2>Spring</h2>${terms}${prose(3)}
      <div class="pull">${prose(1)}${prose(2)}</div><blockquote>${prose(1)}${prose(3)}</blockquote>${code}${code}</article></body>`;
    const out = md(html);
    expect(count(out, 'blackout dates apply')).toBe(2);
    expect(count(out, 'Paragraph 1 of the guide')).toBe(3);
    expect(count(out, 'tidal --key')).toBe(2);
  });

  it('a forum thread whose posts repeat an earlier post without marking the quote: every post whole', () => {
    const post = (i: number, body: string) =>
      `<div class="comment" id="post-${i}"><div class="comment-meta"><span class="author">member${i}</span> <time datetime="2024-03-0${i}">March ${i}, 2024</time></div><div class="comment-body">${body}</div></div>`;
    const first = '<p>Thank you to all the moderators who kept this place running for years, and to everyone who answered a question.</p><p>I hope the forum stays open for a long time yet.</p>';
    const posts = [post(1, first), post(2, `<div class="earlier">${first}</div><p>Seconded, every word of it, and thanks from me too.</p>`), post(3, '<p>Same here, what a community it has been over all these years of building things together.</p>')];
    const html = `<!doctype html><html><head><title>Thank you thread</title></head><body><main><h1>Thank you thread</h1><div class="comments">${posts.join('')}</div></main></body></html>`;
    const out = md(html, 'https://forum.example/threads/thank-you.123/');
    expect(count(out, 'kept this place running')).toBe(2);
  });

  it('a product page: the "people who viewed this item also viewed" and "frequently bought together" sections stay out', () => {
    const card = (i: number) => `<li><a href="/itm/${900 + i}"><img src="/t${i}.jpg" alt=""><h3>Gold chain model ${i} for motorbikes, 104 links</h3></a><span>$${150 + i}.00</span></li>`;
    const section = (title: string) => `<section><div><div><h2>${title}</h2></div></div><ul>${Array.from({ length: 5 }, (_, i) => card(i)).join('')}</ul></section>`;
    const html = `<!doctype html><html><head><title>DID 520 chain</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"DID 520 gold chain, 104 links","offers":{"@type":"Offer","price":"163.12","priceCurrency":"EUR"}}</script></head><body><main>
      <div class="item"><h1>DID 520 gold chain, 104 links</h1><p class="price">EUR 163.12</p><button>Buy it now</button>
      <div class="item-description"><p>A gold 520-pitch chain with 104 links, X-ring sealed, for motorbikes of 600 to 1000 cc, sold with its rivet link.</p><p>Condition: new, in its box.</p></div></div>
      ${section('People who viewed this item also viewed')}${section('Frequently bought together')}</main></body></html>`;
    const out = md(html, 'https://shop.example/itm/296607459180');
    expect(out).toContain('X-ring sealed');
    expect(out).not.toContain('Gold chain model');
  });

  it('an item page laid out in like panels: the "Similar items" panel goes, its heading deep in wrappers and its cards opened by script', () => {
    // The cards have no anchors (a click handler opens them), the heading sits seven wrappers down,
    // and the panels share one class, so they read as records kept whole.
    const card = (i: number) => `<li class="card" data-listing="${700 + i}"><img src="/t${i}.jpg" alt=""><h3>Chain guide model ${i} for touring motorbikes</h3><span>$${70 + i}.00</span><span>Seller 99.${i}% positive</span></li>`;
    const deep = (inner: string, n: number): string => (n ? `<div class="w${n}">${deep(inner, n - 1)}</div>` : inner);
    const panel = (inner: string) => `<div class="bottom-panel river">${inner}</div>`;
    const related = (title: string) => panel(`<div class="recs">${deep(`<h2>${title}</h2>`, 6)}<div class="carousel"><ul>${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</ul></div></div>`);
    const html = `<!doctype html><html><head><title>DID 520 chain</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"DID 520 gold chain, 104 links","offers":{"@type":"Offer","price":"163.12","priceCurrency":"EUR"}}</script></head><body><main>
      ${panel('<h1>DID 520 gold chain, 104 links</h1><p class="price">EUR 163.12</p><div class="item-description"><p>A gold 520-pitch chain with 104 links, X-ring sealed, for motorbikes of 600 to 1000 cc, sold with its rivet link and a spare clip.</p><p>Condition: new, in its box, never fitted. Shipped from Milan within two working days.</p></div>')}
      ${related('Similar Items')}${related('Explore related items')}</main></body></html>`;
    const out = md(html, 'https://shop.example/itm/296607459180');
    expect(out).toContain('X-ring sealed');
    expect(out).not.toContain('Chain guide model');
    expect(out).not.toContain('Similar Items');
  });

  it('a long paragraph right after a copy of itself (one per screen size): once; the same paragraph with other text between stays', () => {
    const long = '<p>The makings of your ideal sleep space start with intention: a bed that is beautiful and sets a new standard for softness, in the colours and fabrics that suit your room and your climate.</p>';
    const html = `<body><main><h1>All sheets</h1><p>Percale, sateen and linen sheets for every kind of sleeper.</p><div class="sm">${long}</div><div class="lg">${long}</div><h2>Care</h2><p>Wash cold, tumble dry low, and iron warm if you like them crisp.</p></main></body>`;
    expect(count(md(html, 'https://shop.example/collections/sheets'), 'makings of your ideal sleep space')).toBe(1);
  });
  it("a card's title written twice in a row (one per layout): once; the same heading with text between stays", () => {
    const card = (i: number) => `<li class="card"><a href="/products/roast-${i}"><img src="/r${i}.jpg" alt=""></a><div class="card__content"><h3><a href="/products/roast-${i}">Dark roast ${i}</a></h3></div><div class="card__content"><h3 class="h5"><a href="/products/roast-${i}">Dark roast ${i}</a></h3><span class="price">$${15 + i}.99</span></div></li>`;
    const out = md(`<!doctype html><html><head><title>Coffee</title></head><body><main><h1>Coffee</h1><ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul></main></body></html>`, 'https://shop.example/collections/coffee');
    expect(count(out, 'Dark roast 7]')).toBe(1);
    expect(out).toContain('$22.99');
    // A heading repeated with content between (each day of a schedule under "Morning"): each stays.
    const day = (d: string) => `<section><h2>${d}</h2><h3>Morning</h3><p>Harbour tour at nine, ${d}, from the north pier, back by noon for lunch at the quay.</p></section>`;
    const schedule = md(`<body><article><h1>Festival schedule</h1>${['Friday', 'Saturday', 'Sunday'].map(day).join('')}</article></body>`);
    expect(count(schedule, '### Morning')).toBe(3);
  });
});

