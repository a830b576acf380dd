import ipaddr from 'ipaddr.js';
import { targetForbidden } from '../errors.js';

/** Outcome of classifying one IP address. `range` is the ipaddr.js range name (or our own label). */
export interface AddressClass {
  allowed: boolean;
  range: string;
}

// 2000::/3 is the only IPv6 block IANA allocates for global unicast. ipaddr.js labels everything it
// does not know as `unicast`, including ::7f00:1 (IPv4-compatible, deprecated) and unallocated
// space, so we narrow it: anything outside 2000::/3 is not a public destination.
// Parsed on first use: module init is part of every API function's cold start.
let globalUnicastV6: [ipaddr.IPv6, number] | undefined;

/**
 * Classify an IP address as a scrape destination. Only the ipaddr.js range `unicast` is allowed;
 * every special range (private, loopback, link-local, unique-local, CGNAT, multicast, reserved,
 * unspecified, broadcast, ...) is refused, and so is every IPv6 form that embeds an IPv4 address
 * (IPv4-mapped, 6to4, Teredo, NAT64), because the embedded address could be private and we do not
 * want to reason about which translator sits in front of it.
 *
 * IPv4 must be in dotted-decimal four-part form (as resolvers return it); odd spellings such as
 * `127.1` are reported as `invalid` and refused.
 */
export function classifyAddress(ip: string): AddressClass {
  const raw = ip.trim();
  if (ipaddr.IPv4.isValidFourPartDecimal(raw)) {
    const range = ipaddr.IPv4.parse(raw).range();
    return { allowed: range === 'unicast', range };
  }
  const bare = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  if (!ipaddr.IPv6.isValid(bare)) return { allowed: false, range: 'invalid' };
  const v6 = ipaddr.IPv6.parse(bare);
  const range = v6.range();
  if (range !== 'unicast') return { allowed: false, range };
  if (!v6.match((globalUnicastV6 ??= ipaddr.IPv6.parseCIDR('2000::/3')))) return { allowed: false, range: 'nonGlobalIPv6' };
  return { allowed: true, range };
}

/** True when `host` is an IP literal (v4 dotted, or v6 with or without brackets). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || ipaddr.IPv6.isValid(bare);
}

/**
 * The host exactly as written in `raw`, before WHATWG normalisation, or null when it cannot be
 * isolated. Mirrors the URL parser's tolerance: tabs/newlines are dropped, backslashes act as
 * slashes, the slashes after the scheme are optional.
 */
function rawHostOf(raw: string): string | null {
  // Control characters are what the WHATWG URL parser strips here too: matching them is the point.
  // eslint-disable-next-line no-control-regex
  const s = raw.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  const m = /^[a-z][a-z0-9+.-]*:[/\\]*([^/\\?#]*)/i.exec(s);
  if (!m) return null;
  let authority = m[1];
  const at = authority.lastIndexOf('@');
  if (at >= 0) authority = authority.slice(at + 1);
  if (authority.startsWith('[')) return authority.slice(0, authority.indexOf(']') + 1);
  const colon = authority.lastIndexOf(':');
  return colon >= 0 ? authority.slice(0, colon) : authority;
}

/**
 * Parse a target URL and refuse what a scrape target must never be: a non-http(s) scheme,
 * embedded credentials, or an IPv4 address in an unusual spelling (decimal `2130706433`, octal
 * `0177.0.0.1`, hex `0x7f000001`, short `127.1`, percent-encoded, trailing dot...). WHATWG URL
 * silently normalises those to dotted form; we refuse them anyway because they are a classic way
 * to smuggle an address past naive filters, and a legitimate target never needs them.
 *
 * This is a syntax gate only: whether the (resolved) address may be reached is the egress guard's
 * decision, so the loopback fixture `http://127.0.0.1:4100/` parses fine here.
 *
 * @throws AppError 400 `target_forbidden` saying why.
 */
export function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw targetForbidden('Target is not a valid absolute URL');
  }
  assertTargetShape(url);
  const written = rawHostOf(raw)?.toLowerCase() ?? null;
  if (ipaddr.IPv4.isValidFourPartDecimal(url.hostname) && written !== url.hostname) {
    const { range } = classifyAddress(url.hostname);
    throw targetForbidden(
      `Target host ${JSON.stringify(written ?? raw)} is an unusual IPv4 spelling (normalises to ` +
        `${url.hostname}, range ${range}); write IPv4 addresses in dotted-decimal form`,
    );
  }
  return url;
}

/** Scheme and credential checks shared by string and already-parsed URLs. */
export function assertTargetShape(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw targetForbidden(`Target scheme ${JSON.stringify(url.protocol.replace(/:$/, ''))} is not allowed; use http or https`);
  }
  if (url.username || url.password) {
    throw targetForbidden('Target URL must not embed credentials (user:password@host)');
  }
  if (!url.hostname) throw targetForbidden('Target URL has no host');
}
