import { describe, expect, it } from 'vitest';
import { needsJs } from '../../../functions/core/engine/needs-js.js';
import { articlePage, cloudflareChallengePage, homePage, productsPage, staticPage, jsAppPage } from '../../fixtures/site/pages.js';

describe('needsJs', () => {
  it('says yes for an empty app root filled by a script', () => {
    expect(needsJs(jsAppPage())).toEqual({ needed: true, reason: 'empty app root #root with script' });
  });

  it('says yes for a Next.js-style shell', () => {
    const html = '<html><body><div id="__next"></div><script src="/_next/static/chunks/main.js"></script></body></html>';
    expect(needsJs(html).needed).toBe(true);
  });

  it('says yes when <noscript> asks for JavaScript and there is little text', () => {
    const html = '<html><body><p>Loading…</p><noscript>Please enable JavaScript to view this site.</noscript></body></html>';
    expect(needsJs(html)).toEqual({ needed: true, reason: 'noscript asks to enable JavaScript' });
  });

  it('says yes for almost no text plus a script bundle', () => {
    const html = '<html><body><div class="shell">Hi</div><script src="/bundle.js"></script></body></html>';
    expect(needsJs(html).needed).toBe(true);
  });

  it.each([
    ['home (has a script, plenty of text)', homePage('http://x')],
    ['article', articlePage('http://x')],
    ['static page', staticPage(1, 50)],
    ['product list (short, no script)', productsPage(1, 3)],
  ])('says no for %s', (_, html) => {
    expect(needsJs(html)).toEqual({ needed: false, reason: null });
  });

  it('ignores JSON-LD and template scripts', () => {
    const html = '<html><body><p>Short</p><script type="application/ld+json">{"@type":"Thing"}</script></body></html>';
    expect(needsJs(html).needed).toBe(false);
  });

  it('would say yes for a challenge page, which is why governance runs first', () => {
    expect(needsJs(cloudflareChallengePage()).needed).toBe(true);
  });
});
