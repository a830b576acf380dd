import { describe, expect, it } from 'vitest';
import { cacheable, cacheKeyOf } from '../../../functions/core/freshness/page-cache.js';
import { pageKeyUrl } from '../../../functions/core/freshness/page-key-url.js';

// The key decides which earlier answer may serve a request: equal output options must meet,
// different ones must never.
describe('cacheKeyOf', () => {
  const base = { url: 'https://example.com/a?b=2&a=1', engine: 'http', formats: ['markdown'], only_main_content: true };

  it('ignores field order, timeout_ms, max_age and the URL’s tracking parameters and fragment', () => {
    const k = cacheKeyOf('scrape', base);
    expect(cacheKeyOf('scrape', { only_main_content: true, formats: ['markdown'], engine: 'http', url: 'https://EXAMPLE.com/a?a=1&utm_source=x&b=2#top', timeout_ms: 5000, max_age: 10 })).toBe(k);
  });

  it('differs for any option that changes the output, for another URL and for another surface', () => {
    const k = cacheKeyOf('scrape', base);
    const others = [
      { ...base, formats: ['markdown', 'links'] },
      { ...base, only_main_content: false },
      { ...base, engine: 'browser' },
      { ...base, exclude_tags: ['.ad'] },
      { ...base, json_options: { schema: { type: 'object' } } },
      { ...base, url: 'https://example.com/a?a=1&b=3' },
    ].map((r) => cacheKeyOf('scrape', r));
    expect(new Set([k, ...others]).size).toBe(others.length + 1);
    expect(cacheKeyOf('page-content', base)).not.toBe(k);
  });
});

// Issue 37 finding 13: a single-page app's routes are different pages in the browser, and an
// edited profile renders differently.
describe('cacheKeyOf: fragments and profiles', () => {
  const spa = { url: 'https://app.example.com/#/a', formats: ['markdown'] };

  it('keeps the fragment where the browser may render the page, drops it for the http engine', () => {
    for (const engine of ['browser', 'auto', undefined]) {
      expect(cacheKeyOf('scrape', { ...spa, engine })).not.toBe(cacheKeyOf('scrape', { ...spa, engine, url: 'https://app.example.com/#/b' }));
      expect(cacheKeyOf('scrape', { ...spa, engine })).toBe(cacheKeyOf('scrape', { ...spa, engine, url: 'https://APP.example.com:443/?utm_source=x#/a' }));
    }
    expect(cacheKeyOf('scrape', { ...spa, engine: 'http' })).toBe(cacheKeyOf('scrape', { ...spa, engine: 'http', url: 'https://app.example.com/#/b' }));
    // An empty fragment is no route.
    expect(cacheKeyOf('scrape', { ...spa, engine: 'browser', url: 'https://app.example.com/#' })).toBe(cacheKeyOf('scrape', { ...spa, engine: 'browser', url: 'https://app.example.com/' }));
  });

  it('keys a profile by what it holds, not by its id', () => {
    const req = { ...spa, engine: 'browser', browser_profile: 'prf_1' };
    const v1 = { profile_id: 'prf_1', name: 'de', locale: 'de-DE', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
    const edited = { ...v1, locale: 'fr-FR', updated_at: '2026-01-02T00:00:00Z' };
    expect(cacheKeyOf('scrape', req, v1)).not.toBe(cacheKeyOf('scrape', req, edited));
    // Saved again unchanged: the same settings, the same key.
    expect(cacheKeyOf('scrape', req, v1)).toBe(cacheKeyOf('scrape', req, { ...v1, updated_at: '2026-01-03T00:00:00Z' }));
    // Another profile with the same settings renders the same page.
    expect(cacheKeyOf('scrape', { ...req, browser_profile: 'prf_2' }, { ...v1, profile_id: 'prf_2' })).toBe(cacheKeyOf('scrape', req, v1));
    // Without a profile: not the key of any profile's answer.
    expect(cacheKeyOf('scrape', { ...spa, engine: 'browser' })).not.toBe(cacheKeyOf('scrape', req, v1));
  });
});

describe('pageKeyUrl (answers and change baselines)', () => {
  it('is the normalised URL, with the fragment unless the engine is http', () => {
    expect(pageKeyUrl('https://app.example.com/?b=1&a=2#/a', 'browser')).toBe('https://app.example.com/?a=2&b=1#/a');
    expect(pageKeyUrl('https://app.example.com/?b=1&a=2#/a', 'http')).toBe('https://app.example.com/?a=2&b=1');
    expect(pageKeyUrl('https://app.example.com/page', 'auto')).toBe('https://app.example.com/page');
  });
});

describe('cacheable', () => {
  it('refuses requests with actions or anything naming a secret', () => {
    expect(cacheable({ url: 'https://example.com/' })).toBe(true);
    expect(cacheable({ url: 'https://example.com/', actions: [] })).toBe(true);
    expect(cacheable({ url: 'https://example.com/', actions: [{ type: 'click', selector: '#more' }] })).toBe(false);
    expect(cacheable({ url: 'https://example.com/', secrets: ['login'] })).toBe(false);
  });
});
