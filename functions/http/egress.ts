import { EgressCheck } from '../core/governance/egress-check.js';
import type { Config } from '../config.js';

let guard: EgressCheck | undefined;
/** One egress check per API function instance, for up-front target checks (400 target_forbidden). */
export const apiGuard = (c: Config) => (guard ??= new EgressCheck({ allow: c.egressAllow, userAgent: c.userAgent }));
