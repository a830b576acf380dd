import { describe, expect, it } from 'vitest';
import { cacheable, cacheKeyOf } from '../../../functions/core/freshness/page-cache.js';

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

describe('cacheable', () => {
  it('refuses requests with actions or anything naming a secret', () => {
    expect(cacheable({ url: 'https://example.com/' })).toBe(true);
    expect(cacheable({ url: 'https://example.com/', actions: [] })).toBe(true);
    expect(cacheable({ url: 'https://example.com/', actions: [{ type: 'click', selector: '#more' }] })).toBe(false);
    expect(cacheable({ url: 'https://example.com/', secrets: ['login'] })).toBe(false);
  });
});
