import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

// Utility classes that style a block's overflow (Tailwind's `overflow-hidden`, `overflow-x-auto`)
// or style it under a condition (`md:grid`, `hover:underline`) name no role: inside the selected
// content, a block so classed is judged by what it holds, not read as hidden furniture (the
// furniture word `hidden` is in `overflow-hidden`).
const feature = (t: string) => `<div class="p-4"><h3 class="text-lg">${t}</h3><p class="text-gray-500">${t} keeps every report one click away and explains each number in plain words for the whole team.</p></div>`;
const quote = (name: string, text: string) =>
  `<div class="p-4 border rounded-lg"><a class="flex items-center group" href="https://social.example/${name}"><img alt="${name}" src="/${name}.jpg"><div class="font-bold group-hover:text-blue-500">${name}</div><div class="text-xs">Founder at ${name} Labs</div></a><div class="mt-2 text-sm tweet-text">${text}</div></div>`;
const page = (testimonialClass: string) => `<html><head><title>Metrics</title></head><body>
<nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/docs">Docs</a></nav>
<main class="flex-1">
  <div class="py-24"><h1>Simple analytics for your website</h1><p>Metrics is lightweight analytics without cookies. It shows what matters and nothing else, and it is made and hosted in one place.</p></div>
  <div class="grid grid-cols-2">${['Real-time dashboard', 'Goal tracking'].map(feature).join('')}</div>
  <div class="grid grid-cols-2">${['Funnels', 'Bot filtering'].map(feature).join('')}</div>
  <div class="${testimonialClass}"><h2 class="text-3xl">People love Metrics</h2>
    <p class="mt-3 text-xl">Metrics runs reliably at any scale and is trusted by thousands of companies that switched from the big trackers.</p>
    <div class="md:grid gap-4 grid-cols-3">
      ${quote('Ada', 'We moved every site we run to Metrics in an afternoon and never looked back.')}
      ${quote('Grace', 'The dashboard answers the three questions our team asks every morning.')}
      ${quote('Linus', 'Fast to load, easy to read and nothing creepy about it. Exactly what we wanted.')}
    </div>
  </div>
  <div class="pb-12"><h2>Made by a small team</h2><p>We are an independent team of ten people. We are not interested in raising funds; we answer to the people who pay for the product and to nobody else.</p></div>
</main>
<footer class="footer"><a href="/about">About</a> <a href="/contact">Contact</a></footer></body></html>`;

const md = (html: string) => parsePage(load(html), 'https://metrics.example/', { text: false, links: false, metadata: false }).markdown;

describe('layout utility classes', () => {
  it('testimonial cards whose authors\' names are links stay whole, whatever their link density', () => {
    const out = md(page('pt-2 pb-6 bg-white'));
    expect(out).toContain('People love Metrics');
    for (const q of ['in an afternoon and never looked back', 'three questions our team asks', 'Exactly what we wanted']) expect(out).toContain(q);
    expect(out).toContain('Founder at Grace Labs');
  });

  it('teaser cards whose titles are links still go (other stories, not this page\'s)', () => {
    const teaser = (i: number) => `<div class="p-4 border rounded-lg"><h3><a href="/blog/post-${i}">Post number ${i} from our blog</a></h3><div class="text-sm">A short summary of post ${i}, the kind a blog shows under every teaser.</div></div>`;
    const html = page('pt-2 pb-6 bg-white').replace(/<div class="md:grid gap-4 grid-cols-3">[\s\S]*?<\/div>\s*<\/div>\s*<div class="pb-12">/, `<div class="md:grid gap-4 grid-cols-3">${[1, 2, 3].map(teaser).join('')}</div></div><div class="pb-12">`);
    expect(html).toContain('Post number 2');
    const out = md(html);
    expect(out).not.toContain('Post number 2');
    expect(out).toContain('Made by a small team');
  });

  it('a section styled overflow-hidden stays: its heading, its intro and every quote', () => {
    const out = md(page('pt-2 pb-6 overflow-hidden bg-white md:pt-4'));
    expect(out).toContain('People love Metrics');
    expect(out).toContain('trusted by thousands of companies');
    expect(out).toContain('in an afternoon and never looked back');
    expect(out).toContain('Exactly what we wanted');
    expect(out).toContain('Made by a small team');
    expect(out).not.toContain('Contact');
  });

  it('a block named as furniture still goes, overflow utility or not', () => {
    const out = md(page('promo-banner overflow-hidden'));
    expect(out).not.toContain('People love Metrics');
    expect(out).toContain('Real-time dashboard');
    expect(out).toContain('Made by a small team');
  });

  it('a section heading styled for anchor offsets (scroll-mt-24) and a block hidden only on small screens (hidden md:block) stay', () => {
    const html = page('pt-2 pb-6 bg-white')
      .replace('<h2>Made by a small team</h2>', '<h2 class="scroll-mt-24 text-2xl">Made by a small team</h2>')
      .replace('<div class="pb-12">', '<div class="pb-12"><div class="hidden md:block"><p>Our office is in a converted mill by the river, where the whole team meets every Thursday, compares notes and plans the next release.</p></div>');
    const out = md(html);
    expect(out).toContain('## Made by a small team');
    expect(out).toContain('converted mill by the river');
  });
});

describe('cards of prose are cards, not paragraphs', () => {
  it("a story's paragraphs, alike as they are, still pass the cleaner's line rules (a legal line among them goes)", () => {
    const p = (i: number) => `<p>Paragraph ${i} of the report, long enough to be prose, with commas, details and a few more words to count.</p>`;
    const html = `<html><body><nav><a href="/">Home</a> <a href="/news">News</a></nav><article class="story"><h1>Harbour report</h1>
      <div class="part">${p(1)}${p(2)}${p(3)}</div>
      <div class="part">${p(4)}${p(5)}<p>© 2024 Harbour Times. All rights reserved. Reproduction without written permission is prohibited.</p></div>
    </article></body></html>`;
    const out = md(html);
    expect(out).toContain('Paragraph 5 of the report');
    expect(out).not.toContain('All rights reserved');
  });
});
