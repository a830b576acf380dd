import { describe, expect, it } from 'vitest';
import { headTitle } from '../../../functions/core/engine/head-title.js';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { shapePage } from '../../../functions/core/engine/shape-page.js';
import { articlePage, homePage, staticPage } from '../../fixtures/site/pages.js';

const BASE = 'http://127.0.0.1:4100';

/** Documents whose start has the plain shape: the title read without a tree. */
const READ: Array<[string, string]> = [
  ['<title>A</title>', 'A'],
  ['<!doctype html><title> A  &amp; B </title>', 'A & B'],
  ['<head><script>var a="<title>no</title>";</script><title>Z</title>', 'Z'],
  ['<head><style>a{}</style ><title>S</title>', 'S'],
  ["<head><meta name=a'b><title>Q</title>", 'Q'],
  ['<head><meta content="a>b"><title>R</title>', 'R'],
  ['<head><script type="text/template"><title>t</title></script><title>real</title>', 'real'],
  ['<TITLE>up</TITLE>', 'up'],
  ['<title>a\u00a0b</title>', 'a b'],
  ['<title>&nbsp;&hellip;&rsquo;&copy;</title>', '…’©'],
  ['<title>a<b>c</b></title>', 'a<b>c</b>'],
];

/** Documents left to the full parse (null). */
const LEFT: string[] = [
  '<title>A &amp B</title>',
  '<title>&#128;</title>',
  '<title>&notit;</title>',
  '<!-- c --><title>X</title>',
  '<head><script><!--<script></script><title>no</title>--></script><title>W</title>',
  '<head><noscript><title>N</title></noscript><title>M</title>',
  '<svg><title>svg</title></svg><title>real</title>',
  '<title class=x>C</title>',
  '<title>  </title><meta property="og:title" content="og">',
  '<title>a\0b</title>',
  '<head><meta a="unterminated><title>x</title>',
  '<title>no end',
];

describe('headTitle', () => {
  it('reads the title of a plain document start as parsePage does', () => {
    for (const [html, title] of READ) {
      expect(headTitle(html), html).toBe(title);
      expect(parsePage(html, `${BASE}/`).title, html).toBe(title);
    }
  });

  it('leaves every other document to the full parse', () => {
    for (const html of LEFT) expect(headTitle(html), html).toBeNull();
  });

  it('agrees with parsePage on the fixture pages', () => {
    for (const html of [articlePage(BASE), homePage(BASE), staticPage(3, 10)]) {
      const fast = headTitle(html);
      expect(fast).not.toBeNull();
      expect(fast).toBe(parsePage(html, `${BASE}/`).title);
    }
  });
});

describe('shapePage with only html asked for', () => {
  it('gives the full parse title without parsing, and parses when the title is not plain', () => {
    const spec = { url: `${BASE}/`, formats: ['html' as const], decideAuto: false, staticOverlays: true };
    expect(shapePage(staticPage(3, 10), spec).parsed?.title).toBe('Static page 3');
    // og:title fallback: only the full parse knows it.
    const og = '<title> </title><meta property="og:title" content="From og"><body><h1>H</h1></body>';
    expect(shapePage(og, spec).parsed?.title).toBe(parsePage(og, `${BASE}/`).title);
  });
});
