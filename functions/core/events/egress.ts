import { AppError, badRequest } from '../errors.js';
import { EgressCheck } from '../governance/egress-check.js';
import { parseTargetUrl } from '../governance/ip-classifier.js';
import type { Config } from '../../config.js';

let shared: { key: string; check: EgressCheck } | undefined;

/**
 * The egress check for URLs the service will call later (webhook endpoints, bucket endpoints),
 * built once per runtime (and again only if the allow list changes, which happens between test
 * services). Address checks only: the connections themselves go through `egressGuard`
 * (egress-guard.ts), so validating a URL never loads an HTTP client.
 */
export function egressCheck(config: Pick<Config, 'egressAllow' | 'userAgent'>): EgressCheck {
  const key = `${config.egressAllow.join(',')}|${config.userAgent}`;
  if (shared?.key !== key) shared = { key, check: new EgressCheck({ allow: config.egressAllow, userAgent: config.userAgent }) };
  return shared.check;
}

/** What {@link checkOutboundUrl} needs from the guard. */
export interface OutboundChecker {
  isAllowed(host: string, port: number | string): boolean;
  checkUrl(url: string | URL): Promise<URL>;
}

const portOf = (u: URL) => Number(u.port) || (u.protocol === 'https:' ? 443 : 80);

/**
 * Validate a URL the service will call later (a webhook endpoint, a bucket endpoint):
 * https only, except an exact `host:port` in GLEANER_EGRESS_ALLOW, which may be http (API.md
 * "Local mode"); then the egress guard's address check, so a private or loopback target is
 * refused now with `target_forbidden` rather than failing every delivery later.
 *
 * A host that does not resolve right now is accepted: the guard checks again at connect time,
 * and a transient DNS failure should not make registration fail.
 * @throws AppError 400 `invalid_request` (scheme, syntax) or `target_forbidden` (address).
 */
export async function checkOutboundUrl(guard: OutboundChecker, raw: string, field: string): Promise<URL> {
  try {
    new URL(raw);
  } catch {
    throw badRequest(`${field} is not a valid absolute URL`, [{ path: `body.${field}`, message: 'expected an absolute URL' }]);
  }
  const url = parseTargetUrl(raw); // scheme, embedded credentials, odd IP spellings: target_forbidden
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && guard.isAllowed(url.hostname, portOf(url))))
    throw badRequest(`${field} must be an https URL`, [{ path: `body.${field}`, message: 'expected an https URL' }]);
  try {
    await guard.checkUrl(url);
  } catch (e) {
    if (e instanceof AppError) throw e;
    // Unresolvable right now: the connect-time check decides when a request is made.
  }
  return url;
}
