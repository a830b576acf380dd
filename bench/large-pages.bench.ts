import { load } from 'cheerio';
import { parsePage } from '../functions/core/engine/parse.js';
import type { BenchResult } from './stats.js';

/**
 * Large pages (`npm run bench -- large-pages`): the service's parse (main content and markdown)
 * of one page shape at about 1 MB against the same shape at about 20 KB, as CPU per KB of HTML.
 * Linear work gives a ratio near 1; converted whole (before markdown-chunks.ts) the shapes gave
 * 16x (paragraphs), 54x (table rows), 57x (list items) and 63x (links in one block): a 1 MB table
 * took 78 s. Target: at most 2.5x the small page's cost per KB (a larger heap costs some). Shapes: paragraphs, a table's
 * rows, a list's items, an index of links in one block, a highlighted source file's token spans.
 */
const shapes: Record<string, (n: number) => string> = {
  paragraphs: (n) => Array.from({ length: n }, (_, i) => `<p>Paragraph ${i} of the report, with a few words, a comma, and <a href="/r/${i}">a link</a>.</p>`).join(''),
  'table rows': (n) => `<table><thead><tr><th>n</th><th>name</th><th>value</th></tr></thead><tbody>${Array.from({ length: n }, (_, i) => `<tr><td>${i}</td><td>row ${i}</td><td>${i * 7}</td></tr>`).join('')}</tbody></table>`,
  'list items': (n) => `<ul>${Array.from({ length: n }, (_, i) => `<li>Item ${i} of the list, <em>short</em></li>`).join('')}</ul>`,
  'links in one block': (n) => `<div>${Array.from({ length: n }, (_, i) => `<a href="/p/${i}">Page ${i}</a>`).join(' | ')}</div>`,
  'code spans': (n) => `<pre class="language-js"><code>${Array.from({ length: n }, (_, i) => `<span class="tok">t${i}</span>${i % 10 === 9 ? '\n' : ' '}`).join('')}</code></pre>`,
};

const page = (inner: string) => `<!doctype html><html><head><title>Large</title></head><body><main><h1>Large page</h1><p>What follows is long.</p>${inner}</main></body></html>`;

/** CPU ms per KB of HTML of parsing `html` (best of `rounds`). */
function perKb(html: string, rounds: number): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t = process.cpuUsage();
    parsePage(load(html), 'https://bench.test/large', { text: false, links: false });
    const u = process.cpuUsage(t);
    best = Math.min(best, (u.user + u.system) / 1000);
  }
  return best / (html.length / 1024);
}

/** The shape's unit count that makes about `bytes` of HTML. */
function unitsFor(shape: (n: number) => string, bytes: number): number {
  const per = shape(100).length / 100;
  return Math.max(10, Math.round(bytes / per));
}

export function benchLargePages(): BenchResult[] {
  const out: BenchResult[] = [];
  for (const [name, shape] of Object.entries(shapes)) {
    const small = page(shape(unitsFor(shape, 20_000)));
    const large = page(shape(unitsFor(shape, 1_000_000)));
    perKb(small, 3); // warm up
    const base = perKb(small, 10);
    const big = perKb(large, 3);
    const ratio = big / base;
    out.push({
      name: `large page, ${name} (${Math.round(large.length / 1024)} KB vs ${Math.round(small.length / 1024)} KB)`,
      measured: `${big.toFixed(3)} ms/KB`,
      baseline: `${base.toFixed(3)} ms/KB`,
      ratio,
      target: '<= 2.5',
      pass: ratio <= 2.5,
    });
  }
  return out;
}
