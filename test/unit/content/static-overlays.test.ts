import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { consentScore, removeStaticOverlays } from '../../../functions/core/content/overlays.js';
import { sameSite, stitchFrames } from '../../../functions/core/engine/page-capture.js';

// The http engine's overlay removal (no layout): consent containers it can name, never content.
const doc = (body: string) => load(`<!doctype html><html><body>${body}</body></html>`);

describe('removeStaticOverlays', () => {
  it.each([
    ['a platform root (OneTrust)', '<div id="onetrust-consent-sdk"><p>We use cookies and similar technologies. Accept all or manage preferences.</p></div>'],
    ['a consent-named container (de)', '<div class="cookie-banner"><p>Wir verwenden Cookies. Alle akzeptieren oder Einstellungen ändern.</p></div>'],
    ['a consent-named container (fr)', '<section id="gdpr-notice"><p>Nous utilisons des cookies. Tout accepter ou refuser.</p></section>'],
    ['a consent-named container (ja)', '<div class="cmp-container"><p>当サイトはクッキーを使用します。同意しますか？</p></div>'],
    ['a consent-named container (pl)', '<div id="cookie-consent"><p>Ta strona używa plików cookie. Akceptuj lub odrzuć.</p></div>'],
  ])('removes %s', (_, banner) => {
    const $ = doc(`<main><p>The article stays.</p></main>${banner}`);
    expect(removeStaticOverlays($)).toBe(1);
    expect($('body').text()).toBe('The article stays.');
  });

  it('keeps what only mentions cookies, what is not named as consent, and what holds the page', () => {
    const $ = doc(`
      <footer class="cookie-links"><a href="/privacy">Cookie policy</a></footer>
      <div class="recipe"><p>Accept that these cookies need a cold oven; our privacy is the kitchen.</p></div>
      <div class="consent-page"><main><h1>Consent and privacy in research</h1><p>We ask participants to agree; cookies are not involved.</p></main></div>
      <article class="cookie-article">${'<p>A long story about cookies, consent, privacy and choices. </p>'.repeat(80)}</article>`);
    const before = $('body').text();
    expect(removeStaticOverlays($)).toBe(0);
    expect($('body').text()).toBe(before);
  });

  it('scores consent vocabulary by meaning groups', () => {
    expect(consentScore('We use cookies. Accept all.')).toBe(2);
    expect(consentScore('Cookie policy')).toBe(1);
    expect(consentScore('Utilizamos cookies propias; aceptar o rechazar; datos personales')).toBe(4);
  });
});

describe('frames in the composed page', () => {
  it('same site is scheme plus registrable domain, ports ignored', () => {
    expect(sameSite('http://127.0.0.1:1/a', 'http://127.0.0.1:2/b')).toBe(true);
    expect(sameSite('https://www.example.com/', 'https://cdn.example.com/')).toBe(true);
    expect(sameSite('https://shop.example.co.uk/', 'https://example.co.uk/')).toBe(true);
    expect(sameSite('https://example.com/', 'https://example.org/')).toBe(false);
    expect(sameSite('http://localhost:1/', 'http://127.0.0.1:1/')).toBe(false);
    expect(sameSite('http://example.com/', 'https://example.com/')).toBe(false);
  });

  it('stitches same-site and allowlisted frames in place, drops the others', () => {
    const root = {
      url: 'https://example.com/',
      html: '<html><body><p>Top</p><iframe data-gleaner-frame="0-0"></iframe><iframe data-gleaner-frame="0-1"></iframe><iframe data-gleaner-frame="0-2"></iframe></body></html>',
      frames: [
        { id: '0-0', url: 'https://www.example.com/f', html: '<html><body><p>Same site</p></body></html>', frames: [] },
        { id: '0-1', url: 'https://ads.example.net/f', html: '<html><body><p>Ad partner</p></body></html>', frames: [] },
        { id: '0-2', url: 'https://maps.partner.org/f', html: '<html><body><p>Allowed map</p></body></html>', frames: [] },
      ],
    };
    const text = load(stitchFrames(root, root.url, { mode: 'open', domains: ['partner.org'] }))('body').text();
    expect(text).toBe('TopSame siteAllowed map');
  });
});

describe('removeStaticOverlays and short links', () => {
  it('leaves a consent-named link or menu item in place (a notice is a sentence or more)', () => {
    const $ = doc('<nav><a class="privacy-consent" href="#">Privacy Preferences</a> <a class="change-consent" href="#">Consent preferences</a></nav><main><p>Body.</p></main>');
    expect(removeStaticOverlays($)).toBe(0);
    expect($('nav a')).toHaveLength(2);
  });
});
