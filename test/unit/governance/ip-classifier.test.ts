import { describe, expect, it } from 'vitest';
import { AppError } from '../../../functions/core/errors.js';
import { classifyAddress, isIpLiteral, parseTargetUrl } from '../../../functions/core/governance/ip-classifier.js';

// Addresses as data only: nothing here opens a socket.
describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'unicast'],
    ['1.1.1.1', 'unicast'],
    ['93.184.216.34', 'unicast'],
    ['2606:4700:4700::1111', 'unicast'],
    ['2001:4860:4860::8888', 'unicast'],
    ['[2a00:1450:4001:80b::200e]', 'unicast'],
  ])('allows public %s', (ip, range) => {
    expect(classifyAddress(ip)).toEqual({ allowed: true, range });
  });

  it.each([
    // IPv4 special ranges
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'], // cloud metadata endpoint
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    // IPv6 special ranges
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['100::1', 'discard'],
    // IPv6 forms embedding IPv4
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
    ['::ffff:7f00:1', 'ipv4Mapped'],
    ['::ffff:10.0.0.1', 'ipv4Mapped'],
    ['::ffff:169.254.169.254', 'ipv4Mapped'],
    ['::ffff:8.8.8.8', 'ipv4Mapped'], // even public: we never dial v4 through a mapped form
    ['[::ffff:127.0.0.1]', 'ipv4Mapped'],
    ['64:ff9b::7f00:1', 'rfc6052'], // NAT64 of 127.0.0.1
    ['64:ff9b::a00:1', 'rfc6052'], // NAT64 of 10.0.0.1
    ['64:ff9b:1::a00:1', 'rfc6052'], // local-use NAT64
    ['2002:7f00:1::1', '6to4'], // 6to4 of 127.0.0.1
    ['2002:c0a8:101::1', '6to4'], // 6to4 of 192.168.1.1
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['::ffff:0:7f00:1', 'rfc6145'],
    ['::7f00:1', 'nonGlobalIPv6'], // IPv4-compatible (deprecated) 127.0.0.1
    ['::a00:1', 'nonGlobalIPv6'],
    ['4000::1', 'nonGlobalIPv6'], // outside 2000::/3
  ])('refuses %s (%s)', (ip, range) => {
    expect(classifyAddress(ip)).toEqual({ allowed: false, range });
  });

  it.each(['2130706433', '0177.0.0.1', '0x7f000001', '127.1', '127.0.0.1.', 'localhost', '', '1.2.3.4.5', 'example.com'])(
    'refuses non-canonical or non-address %j as invalid',
    (ip) => {
      expect(classifyAddress(ip)).toEqual({ allowed: false, range: 'invalid' });
    },
  );
});

describe('isIpLiteral', () => {
  it('recognises v4, bare v6 and bracketed v6, not names', () => {
    expect(isIpLiteral('10.0.0.1')).toBe(true);
    expect(isIpLiteral('::1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('example.com')).toBe(false);
  });
});

function forbidden(raw: string): AppError {
  try {
    parseTargetUrl(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).code).toBe('target_forbidden');
    return err as AppError;
  }
  throw new Error(`expected ${raw} to be refused`);
}

describe('parseTargetUrl', () => {
  it.each(['https://example.com/a?b=1', 'http://example.com:8080/', 'http://127.0.0.1:4100/page', 'http://[::1]:4100/', 'https://xn--bcher-kva.example/'])(
    'accepts %s (address policy is the guard’s job)',
    (raw) => {
      expect(parseTargetUrl(raw)).toBeInstanceOf(URL);
    },
  );

  it.each([
    ['file:///etc/passwd', /scheme "file"/],
    ['ftp://example.com/', /scheme "ftp"/],
    ['gopher://127.0.0.1:70/', /scheme "gopher"/],
    ['javascript:alert(1)', /scheme "javascript"/],
    ['data:text/html,hi', /scheme "data"/],
    ['ws://example.com/', /scheme "ws"/],
    ['http://user:pass@example.com/', /credentials/],
    ['http://user@example.com/', /credentials/],
    ['not a url', /not a valid absolute URL/],
    ['/relative/path', /not a valid absolute URL/],
  ])('refuses %s', (raw, why) => {
    expect(forbidden(raw).message).toMatch(why);
  });

  // WHATWG URL normalises all of these to 127.0.0.1; we check that, then refuse the spelling.
  it.each([
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f000001/',
    'http://0x7f.0.0.1/',
    'http://127.1/',
    'http://127.0.1/',
    'http://127.0.0.1./',
    'http://%31%32%37.0.0.1/',
    'http://１２７.０.０.１/',
    'http:127.1/',
    'http:\\\\127.1\\',
    'HTTP://0X7F000001:80/',
    'http://user@2130706433/',
  ])('refuses the odd IPv4 spelling %s', (raw) => {
    expect(new URL(raw).hostname).toBe('127.0.0.1');
    expect(classifyAddress(new URL(raw).hostname)).toEqual({ allowed: false, range: 'loopback' });
    expect(forbidden(raw).message).toMatch(/unusual IPv4 spelling|credentials/);
  });

  it('names the normalised address and its range in the message', () => {
    expect(forbidden('http://2130706433/').message).toBe(
      'Target host "2130706433" is an unusual IPv4 spelling (normalises to 127.0.0.1, range loopback); write IPv4 addresses in dotted-decimal form',
    );
    expect(forbidden('http://134744072/').message).toMatch(/normalises to 8\.8\.8\.8, range unicast/);
  });

  it('leaves IPv6 literals to the classifier (WHATWG compresses them)', () => {
    const url = parseTargetUrl('http://[::ffff:127.0.0.1]/');
    expect(url.hostname).toBe('[::ffff:7f00:1]');
    expect(classifyAddress(url.hostname).allowed).toBe(false);
  });
});
