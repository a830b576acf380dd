import { describe, expect, it } from 'vitest';
import { compilePattern, patternError, urlFilter } from '../../../functions/core/scrapers/url-patterns.js';
import { normalizeUrl, sameSite } from '../../../functions/core/scrapers/normalize-url.js';

describe('URL patterns', () => {
  it.each([
    ['/blog/**', 'https://s.example/blog/2024/post', true],
    ['/blog/**', 'https://s.example/blogger', false],
    ['/blog/*', 'https://s.example/blog/a/b', false],
    ['/a/**/z', 'https://s.example/a/z', true],
    ['/a/**/z', 'https://s.example/a/b/c/z', true],
    ['*.pdf', 'https://s.example/files/report.pdf', true],
    ['*.pdf', 'https://s.example/files/report.html', false],
    ['https://s.example/docs/*', 'https://s.example/docs/x', true],
    ['/products?page=?', 'https://s.example/products?page=2', true],
    ['/\\/crawl\\/(a|b)\\//', 'https://s.example/crawl/a/1', true],
    ['/\\/CRAWL\\//i', 'https://s.example/crawl/c', true],
  ])('%s on %s -> %s', (pattern, url, expected) => {
    expect(compilePattern(pattern).test(url)).toBe(expected);
  });

  it('reports invalid regular expressions', () => {
    expect(patternError('/(unclosed/')).toMatch(/regular expression/i);
    expect(patternError('/fine/**')).toBeNull();
  });

  it('combines include and exclude', () => {
    const f = urlFilter(['/crawl/**'], ['/crawl/skip/**', '/crawl/skip']);
    expect(f('http://h/crawl/a')).toBe(true);
    expect(f('http://h/crawl/skip')).toBe(false);
    expect(f('http://h/crawl/skip/1')).toBe(false);
    expect(f('http://h/other')).toBe(false);
    expect(urlFilter()('http://h/anything')).toBe(true);
  });
});

describe('normalizeUrl / sameSite', () => {
  it('drops fragments, empty queries, tracking parameters and default ports; sorts the rest', () => {
    expect(normalizeUrl('HTTP://Example.COM:80/a?b=2&a=1&utm_source=x#frag')).toBe('http://example.com/a?a=1&b=2');
    expect(normalizeUrl('http://h.example/crawl/a?')).toBe('http://h.example/crawl/a');
    expect(normalizeUrl('/rel', 'https://h.example/x/')).toBe('https://h.example/rel');
    expect(normalizeUrl('mailto:x@y.z')).toBeNull();
  });

  it('treats www. and default-port scheme changes as the same site, other ports and hosts not', () => {
    expect(sameSite('https://www.s.example/a', 'https://s.example/b')).toBe(true);
    expect(sameSite('http://s.example/a', 'https://s.example/b')).toBe(true);
    expect(sameSite('http://127.0.0.1:4100/a', 'http://127.0.0.1:4100/b')).toBe(true);
    expect(sameSite('http://127.0.0.1:4100/a', 'http://127.0.0.1:4101/b')).toBe(false);
    expect(sameSite('https://s.example/', 'https://external.example/')).toBe(false);
    expect(sameSite('https://sub.s.example/', 'https://s.example/')).toBe(false);
  });
});
