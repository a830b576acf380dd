import { EgressCheck } from '../core/governance/egress-check.js';
import type { Config } from '../config.js';

let guard: EgressCheck | undefined;
/** One egress check per API function instance, for up-front target checks (400 target_forbidden). */
export const apiGuard = (c: Config) => (guard ??= new EgressCheck({ allow: c.egressAllow, userAgent: c.userAgent }));

/**
 * robots.txt checks for the API (the process's one robots cache, core/governance/process-robots.ts):
 * a cached scrape answer is served only to a URL robots.txt allows now. Loaded on the first cached
 * answer, never on the ordinary path.
 */
export const apiRobots = (c: Config) => async (url: string): Promise<{ allowed: boolean }> => {
  const { processRobots } = await import('../core/governance/process-robots.js');
  return processRobots(c).check(url);
};
