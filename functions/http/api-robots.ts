import type { Config } from '../config.js';

/**
 * robots.txt checks for the API (the process's one robots cache, core/governance/process-robots.ts):
 * a cached scrape answer is served only to a URL robots.txt allows now. Loaded on the first cached
 * answer, never on the ordinary path; a module of its own so that functions which only check
 * targets (egress.ts) carry no HTTP client in their bundle.
 */
export const apiRobots = (c: Config) => async (url: string): Promise<{ allowed: boolean }> => {
  const { processRobots } = await import('../core/governance/process-robots.js');
  return processRobots(c).check(url);
};
