import { describe, expect, it } from 'vitest';
import { detectChallenge } from '../../../functions/core/governance/challenge.js';

const ARTICLE = `<p>${'Gleaner collects public pages politely and stores structured results for later use. '.repeat(30)}</p>`;
const page = (head: string, body: string) => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

const CF_INTERSTITIAL = page(
  '<title>Just a moment...</title><meta name="robots" content="noindex,nofollow">',
  `<div class="main-wrapper"><noscript>Enable JavaScript and cookies to continue</noscript></div>
   <script>(function(){window._cf_chl_opt={cvId: '3',cZone: 'example.com',cType: 'managed'};
   var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=abc';})();</script>`,
);

describe('detectChallenge', () => {
  it('flags the Cloudflare managed-challenge interstitial', () => {
    expect(detectChallenge({ status: 403, headers: { 'cf-mitigated': 'challenge', server: 'cloudflare' }, html: CF_INTERSTITIAL })).toEqual({
      kind: 'cloudflare_challenge',
      reason: 'cf-mitigated: challenge header (status 403)',
    });
    expect(detectChallenge({ status: 503, headers: {}, html: CF_INTERSTITIAL })?.kind).toBe('cloudflare_challenge');
    expect(detectChallenge({ status: 200, headers: {}, html: CF_INTERSTITIAL })?.reason).toMatch(/_cf_chl_opt/);
  });

  it('reads cf-mitigated from a Headers object, case-insensitively', () => {
    const headers = new Headers({ 'CF-Mitigated': 'Challenge' });
    expect(detectChallenge({ status: 200, headers, html: ARTICLE })?.kind).toBe('cloudflare_challenge');
    expect(detectChallenge({ status: 200, headers: { 'CF-Mitigated': 'challenge' }, html: ARTICLE })?.kind).toBe('cloudflare_challenge');
  });

  it('flags "Just a moment..." and challenges.cloudflare.com on a block status', () => {
    const html = page('<title>Just a moment...</title>', '<p>Checking your browser</p>');
    expect(detectChallenge({ status: 429, headers: {}, html })).toEqual({ kind: 'cloudflare_challenge', reason: 'Cloudflare "Just a moment..." interstitial on a 429 response' });
    const cdn = page('', '<script src="https://challenges.cloudflare.com/cdn-cgi/challenge-platform/x.js"></script>');
    expect(detectChallenge({ status: 503, headers: {}, html: cdn })?.kind).toBe('cloudflare_challenge');
  });

  it('flags the Cloudflare block page', () => {
    const html = page('<title>Attention Required! | Cloudflare</title>', '<div id="cf-error-details">Sorry, you have been blocked</div>');
    expect(detectChallenge({ status: 403, headers: {}, html })?.kind).toBe('cloudflare_challenge');
  });

  it('flags a Turnstile wall', () => {
    const html = page('<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>', '<form><div class="cf-turnstile" data-sitekey="0x4AAA"></div></form>');
    expect(detectChallenge({ status: 403, headers: {}, html })).toEqual({ kind: 'turnstile', reason: 'Cloudflare Turnstile widget on a 403 response' });
    expect(detectChallenge({ status: 200, headers: {}, html })?.kind).toBe('turnstile');
  });

  it('flags an hCaptcha wall', () => {
    const html = page('<script src="https://js.hcaptcha.com/1/api.js" async defer></script>', '<p>Please complete the security check</p><div class="h-captcha" data-sitekey="x"></div>');
    expect(detectChallenge({ status: 429, headers: {}, html })?.kind).toBe('hcaptcha');
    expect(detectChallenge({ status: 200, headers: {}, html })).toEqual({ kind: 'hcaptcha', reason: 'hCaptcha widget on a page with almost no other content (status 200)' });
  });

  it('flags a reCAPTCHA wall', () => {
    const html = page('<script src="https://www.google.com/recaptcha/api.js"></script>', '<form action="?"><div class="g-recaptcha" data-sitekey="x"></div><input type="submit"></form>');
    expect(detectChallenge({ status: 403, headers: {}, html })?.kind).toBe('recaptcha');
    expect(detectChallenge({ status: 200, headers: {}, html })?.kind).toBe('recaptcha');
    const viaNet = page('<script src="https://www.recaptcha.net/recaptcha/api.js?render=explicit"></script>', '<p>One more step</p>');
    expect(detectChallenge({ status: 200, headers: {}, html: viaNet })?.kind).toBe('recaptcha');
  });

  it('flags a generic "verify you are human" CAPTCHA wall on 403/429', () => {
    const html = page('<title>Access denied</title>', '<h1>Please verify you are a human</h1><img src="/captcha.png"><input name="captcha">');
    expect(detectChallenge({ status: 403, headers: {}, html })).toEqual({ kind: 'unknown', reason: '"verify you are human" CAPTCHA wall on a 403 response' });
    expect(detectChallenge({ status: 429, headers: {}, html })?.kind).toBe('unknown');
    expect(detectChallenge({ status: 200, headers: {}, html })).toBeNull();
  });

  it('does not flag a normal page that merely talks about CAPTCHAs', () => {
    const html = page('<title>Why CAPTCHAs fail</title>', `<h1>Why CAPTCHA walls fail</h1><p>A captcha asks you to verify you are human; reCAPTCHA and hCaptcha are common, and Cloudflare says "Just a moment..." while it checks.</p>${ARTICLE}`);
    expect(detectChallenge({ status: 200, headers: { 'content-type': 'text/html' }, html })).toBeNull();
  });

  it('does not flag a content page whose contact form embeds a widget', () => {
    const html = page('<script src="https://www.google.com/recaptcha/api.js"></script>', `${ARTICLE}<form><div class="g-recaptcha" data-sitekey="x"></div></form>`);
    expect(detectChallenge({ status: 200, headers: {}, html })).toBeNull();
  });

  it('does not flag invisible reCAPTCHA v3 scoring or Cloudflare bot scripts on a normal page', () => {
    const v3 = page('<script src="https://www.google.com/recaptcha/api.js?render=6Lc_site_key"></script>', '<p>Short landing page.</p>');
    expect(detectChallenge({ status: 200, headers: {}, html: v3 })).toBeNull();
    const jsd = page('', `${ARTICLE}<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>`);
    expect(detectChallenge({ status: 200, headers: {}, html: jsd })).toBeNull();
  });

  it('does not flag ordinary errors', () => {
    expect(detectChallenge({ status: 404, headers: {}, html: page('<title>Not found</title>', '<h1>404</h1>') })).toBeNull();
    expect(detectChallenge({ status: 503, headers: {}, html: page('<title>Maintenance</title>', '<p>Back soon</p>') })).toBeNull();
    expect(detectChallenge({ status: 403, headers: {}, html: 'Forbidden' })).toBeNull();
  });
});
