import { EgressGuard } from '../core/governance/index.js';
import type { Config } from '../config.js';

let guard: EgressGuard | undefined;
/** One egress guard per API function instance, for up-front target checks (400 target_forbidden). */
export const apiGuard = (c: Config) => (guard ??= new EgressGuard({ allow: c.egressAllow, userAgent: c.userAgent }));
