import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { isTicker } from '../../../functions/core/content/ticker.js';

// A ticker (marquee) writes one phrase again and again as sibling blocks so an animation can
// scroll it without a gap: the phrase is a banner's call to action, not the page's content.
const para = (t: string) => `<p>${t} We plan each package with the brand team, print samples in our own studio and ship the final run within three weeks of approval.</p>`;
const page = (ticker: string) => `<html><head><title>Packaging design</title></head><body>
<main>
  <section><h1>Cosmetic packaging design</h1>${para('Packaging that sells.')}${para('Boxes, jars and labels.')}</section>
  ${ticker}
  <section><h2>How we work</h2>${para('First a brief.')}${para('Then three concepts.')}</section>
</main></body></html>`;
const md = (html: string) => parsePage(load(html), 'https://studio.example/services/packaging', { text: false, links: false, metadata: false }).markdown;

describe('tickers', () => {
  it('a phrase repeated as sibling blocks (a marquee) is left out', () => {
    const spans = Array.from({ length: 40 }, () => '<span>Book Now <span class="star">*</span></span>').join('');
    const out = md(page(`<div class="anim"><div class="container">${spans}</div></div>`));
    expect(out).not.toContain('Book Now');
    expect(out).toContain('Then three concepts.');
    expect(out).toContain('Boxes, jars and labels.');
  });

  it('a list whose items all say the same short line is a ticker too', () => {
    const items = Array.from({ length: 12 }, () => '<li><div><p>SECURE YOUR SPOT - ENROL NOW</p></div></li>').join('');
    const out = md(page(`<div class="ticker"><ul>${items}</ul></div>`));
    expect(out).not.toContain('SECURE YOUR SPOT');
  });

  it('three alike items, items that differ and repeated lines of code stay', () => {
    const three = Array.from({ length: 3 }, () => '<li>Free shipping on every order</li>').join('');
    const differ = ['Free shipping', 'Free returns', 'Free shipping', 'Free shipping'].map((t) => `<li>${t} for members</li>`).join('');
    const code = `<pre><code>${Array.from({ length: 5 }, () => '<span>retry();</span>\n').join('')}</code></pre>`;
    const out = md(page(`<section><h2>Perks</h2><ul>${three}</ul><ul>${differ}</ul>${code}</section>`));
    expect(out.match(/Free shipping on every order/g)).toHaveLength(3);
    expect(out).toContain('Free returns for members');
    expect(out.match(/retry\(\);/g)).toHaveLength(5);
  });

  it('alike links, or items holding one, make no ticker (a menu, a rail of teasers); alike text items do', () => {
    const first = (html: string) => load(html)('body > *').get(0)!;
    expect(isTicker(first(`<ul>${'<li><a href="/p">See the plan details</a></li>'.repeat(6)}</ul>`))).toBe(false);
    expect(isTicker(first(`<div>${'<a href="/p">See the plan details</a>'.repeat(6)}</div>`))).toBe(false);
    expect(isTicker(first(`<ul>${'<li><span>See the plan details</span></li>'.repeat(6)}</ul>`))).toBe(true);
    expect(isTicker(first(`<div>${'<span>★</span>'.repeat(6)}</div>`))).toBe(false);
  });
});
