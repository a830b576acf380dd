import { describe, expect, it } from 'vitest';
import { AppError } from '../../../functions/core/errors.js';
import { checkTargetPolicy, isAllowlisted, normalizeDomain, type TargetPolicy } from '../../../functions/core/governance/target-policy.js';

const allowlist: TargetPolicy = { mode: 'allowlist', domains: ['Example.com', 'shop.test.', 'bücher.example', '*.wild.test', '10.0.0.1'] };
const open: TargetPolicy = { mode: 'open', domains: ['example.com'] };

function notAuthorized(policy: TargetPolicy, url: string): AppError {
  try {
    checkTargetPolicy(policy, url);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('target_not_authorized');
    expect((err as AppError).status).toBe(400);
    return err as AppError;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe('checkTargetPolicy', () => {
  it.each([
    'https://example.com/',
    'https://EXAMPLE.COM./path',
    'https://www.example.com/',
    'https://a.b.example.com:8443/',
    'http://shop.test/',
    'https://eu.shop.test./cart',
    'https://bücher.example/',
    'https://xn--bcher-kva.example/',
    'https://www.bücher.example/',
    'https://wild.test/',
    'https://x.wild.test/',
    'http://10.0.0.1/',
  ])('allowlist admits %s', (url) => {
    expect(() => checkTargetPolicy(allowlist, url)).not.toThrow();
    expect(isAllowlisted(allowlist, url)).toBe(true);
  });

  it.each([
    'https://notexample.com/',
    'https://example.com.evil.test/',
    'https://examplecom/',
    'https://other.test/',
    'https://buecher.example/',
    'http://110.0.0.1/',
    'http://0.0.1/',
  ])('allowlist refuses %s', (url) => {
    expect(notAuthorized(allowlist, url).message).toMatch(/not in this tenant's allowlist/);
    expect(isAllowlisted(allowlist, url)).toBe(false);
  });

  it('open mode admits anything, but isAllowlisted still reflects the declared domains', () => {
    expect(() => checkTargetPolicy(open, 'https://anywhere.test/')).not.toThrow();
    expect(isAllowlisted(open, 'https://anywhere.test/')).toBe(false);
    expect(isAllowlisted(open, 'https://login.example.com/')).toBe(true);
  });

  it('an empty allowlist admits nothing', () => {
    notAuthorized({ mode: 'allowlist', domains: [] }, 'https://example.com/');
  });

  it('accepts URL objects', () => {
    expect(isAllowlisted(allowlist, new URL('https://www.example.com/'))).toBe(true);
  });
});

describe('normalizeDomain', () => {
  it('lowercases, punycodes and trims', () => {
    expect(normalizeDomain(' Bücher.Example. ')).toBe('xn--bcher-kva.example');
    expect(normalizeDomain('*.Foo.test')).toBe('foo.test');
    expect(normalizeDomain('.foo.test')).toBe('foo.test');
  });
});
