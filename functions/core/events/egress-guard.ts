import { EgressGuard } from '../governance/egress-guard.js';
import type { Config } from '../../config.js';

let shared: { key: string; guard: EgressGuard } | undefined;

/**
 * The egress guard for outgoing webhook deliveries, built once per runtime (and again only if
 * the allow list changes, which happens between test services).
 */
export function egressGuard(config: Pick<Config, 'egressAllow' | 'userAgent'>): EgressGuard {
  const key = `${config.egressAllow.join(',')}|${config.userAgent}`;
  if (shared?.key !== key) shared = { key, guard: new EgressGuard({ allow: config.egressAllow, userAgent: config.userAgent }) };
  return shared.guard;
}
