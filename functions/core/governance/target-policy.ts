import { domainToASCII } from 'node:url';
import * as z from 'zod';
import { targetNotAuthorized } from '../errors.js';
import { isIpLiteral } from './ip-classifier.js';

/**
 * A tenant's target policy (DESIGN.md): `open` reaches any public site (robots still enforced),
 * `allowlist` only the declared domains and their subdomains.
 */
export type TargetPolicy = { mode: 'open' | 'allowlist'; domains: string[] };

/**
 * Canonical form for comparison: lowercase, IDN to punycode, no trailing dot. `*.example.com` and
 * `.example.com` are read as `example.com` since a domain entry already covers its subdomains.
 */
export function normalizeDomain(domain: string): string {
  const bare = domain.trim().replace(/^\*?\./, '').replace(/\.$/, '');
  const v6 = bare.startsWith('[') ? bare.toLowerCase() : null;
  return v6 ?? domainToASCII(bare.toLowerCase()) ?? '';
}

function hostOf(url: string | URL): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  // The URL parser already lowercases and punycodes special-scheme hosts; normalise anyway so a
  // trailing dot (`example.com.`) cannot dodge the comparison.
  return normalizeDomain(parsed.hostname);
}

function matches(host: string, domains: string[]): boolean {
  // IP literals have no subdomains: `10.0.0.1` must not match an entry `0.1`.
  const suffixOk = !isIpLiteral(host);
  for (const raw of domains) {
    const d = normalizeDomain(raw);
    if (d && (host === d || (suffixOk && host.endsWith(`.${d}`)))) return true;
  }
  return false;
}

/**
 * Is the URL's host one of the policy's domains or a subdomain of one, whatever the mode?
 * Runbooks that fill secrets run only where this is true, even under an `open` policy.
 */
export function isAllowlisted(policy: TargetPolicy, url: string | URL): boolean {
  return matches(hostOf(url), policy.domains);
}

/**
 * Enforce the tenant's target policy.
 * @throws AppError 400 `target_not_authorized` when the mode is `allowlist` and the host is not covered.
 */
export function checkTargetPolicy(policy: TargetPolicy, url: string | URL): void {
  if (policy.mode === 'open') return;
  const host = hostOf(url);
  if (!matches(host, policy.domains)) {
    throw targetNotAuthorized(`Target host ${host} is not in this tenant's allowlist`);
  }
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/**
 * Is this already-normalised entry something a host can match: a DNS name of at least two labels
 * (`example.com`, not `.`, `com.` or `a..b`), an IPv4 literal or a bracketed IPv6 literal?
 */
export function isPolicyDomain(d: string): boolean {
  if (!d || d.length > 253) return false;
  if (d.startsWith('[')) return /^\[[0-9a-f:.]+\]$/.test(d) && isIpLiteral(d.slice(1, -1));
  if (IPV4.test(d)) return true;
  const labels = d.split('.');
  return (labels.length >= 2 || d === 'localhost') && labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels.at(-1)!);
}

/**
 * One allowlist entry, on write and on read alike: normalised (see {@link normalizeDomain}), then
 * checked, so what is stored is exactly what will be read back and matched.
 */
export const policyDomainSchema = z
  .string()
  .max(253)
  .overwrite(normalizeDomain)
  .refine(isPolicyDomain, 'expected a domain such as example.com (at least two labels), an IPv4 address or a [IPv6] address');

/** A tenant's target policy as stored and as accepted by the API: duplicates removed. */
export const targetPolicySchema = z.strictObject({
  mode: z.enum(['open', 'allowlist']),
  domains: z.array(policyDomainSchema).max(500).overwrite((ds) => [...new Set(ds)]),
});
