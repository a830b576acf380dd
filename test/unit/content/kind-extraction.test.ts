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

  it('a product grid: every card in order, without the filter panel, sort control, breadcrumbs or pager', () => {
    const card = (i: number) => `<li class="product-card"><a href="/products/clock-${i}"><img src="/c${i}.jpg" alt=""><h3>Harbour clock model ${i}</h3></a><span class="price">$${20 + i}.00</span></li>`;
    const html = `<!doctype html><html><head><title>Clocks</title></head><body>${chrome}<main>
      <div class="breadcrumbs"><a href="/">Shop</a> › <a href="/c/home">Home and living</a> › Clocks</div>
      <h1>Clocks</h1>
      <div class="filters"><h2>Filter by</h2><label><input type="checkbox"> Brass finish</label><label><input type="checkbox"> Walnut finish</label></div>
      <div class="sort-by"><span>Sort by: Best sellers</span></div>
      <ul class="product-grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ul>
      <div class="pagination"><a href="?page=2">Next page</a></div>
    </main>${footer}</body></html>`;
    const out = md(html, 'https://shop.example/collections/clocks');
    const at = Array.from({ length: 12 }, (_, i) => out.search(new RegExp(`Harbour clock model ${i + 1}(?!\\d)`)));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(out).toContain('$32.00');
    expect(out).not.toMatch(/Filter by|Brass finish|Sort by|Home and living|Next page|Privacy policy/);
  });
});
