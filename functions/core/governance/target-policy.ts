import { domainToASCII } from 'node:url';
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
