import { describe, expect, it } from 'vitest';
import { compilePattern, MAX_MATCHED_URL_LENGTH, patternError, patternsError, urlFilter } from '../../../functions/core/scrapers/url-patterns.js';
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
    // An empty fragment or a trailing dot is dropped too; an already canonical URL comes back as it is.
    expect(normalizeUrl('http://h.example/a#')).toBe('http://h.example/a');
    expect(normalizeUrl('http://H.example./a/%7Eb')).toBe('http://h.example/a/%7Eb');
    expect(normalizeUrl('http://h.example:8080/a/b.html')).toBe('http://h.example:8080/a/b.html');
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

describe('URL patterns are matched in linear time (RE2)', () => {
  const long = (n: number) => `https://s.example/${'a'.repeat(n)}!`;

  it.each([
    '/(a+)+$/',
    '/^https://s.example/(a|aa)*$/',
    '/^https:\\/\\/s\\.example\\/(a*)*b/',
    '/(.*a){20}$/',
  ])('a catastrophic backtracking pattern %s finishes on a 2,000-character URL', (p) => {
    // Prepare: with a backtracking engine each of these takes longer than the age of the universe.
    const pattern = compilePattern(p);
    // Act + Assess: the call returns (the test would time out otherwise) with the right answer.
    expect(pattern.test(long(2_000))).toBe(false);
  });

  it('does not match URLs longer than the limit (their matching cost is bounded too)', () => {
    expect(compilePattern('/a/').test(long(MAX_MATCHED_URL_LENGTH))).toBe(false);
    expect(compilePattern('/a/').test(long(100))).toBe(true);
  });

  it.each([
    ['/(a)\\1/', /backreference|escape/i],
    ['/(?=a)b/', /lookahead|lookaround|Perl syntax/i],
    ['/(?<!a)b/', /lookbehind|lookaround|Perl syntax/i],
    ['/(.*a){1000}/', /too large|too complex/i],
  ])('rejects %s with a clear message', (p, message) => {
    expect(patternError(p)).toMatch(message);
  });

  it('bounds the combined size of a crawl\'s patterns', () => {
    const big = '/(.*a){30}/';
    expect(patternError(big)).toBeNull();
    expect(patternsError(Array(50).fill(big))).toMatch(/too complex|too large/i);
    expect(patternsError(['/blog/**', '/\\/a\\//'])).toBeNull();
  });

  it('keeps the JavaScript flags that make sense for URLs', () => {
    expect(compilePattern('/\\/CRAWL\\//i').test('https://s.example/crawl/c')).toBe(true);
    expect(compilePattern('/\\/CRAWL\\//').test('https://s.example/crawl/c')).toBe(false);
    expect(compilePattern('/^https:\\/\\/s\\.example\\/(?<sect>docs|blog)\\//').test('https://s.example/blog/x')).toBe(true);
  });
});
