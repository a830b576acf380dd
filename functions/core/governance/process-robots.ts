import { EgressGuard } from './egress-guard.js';
import { RobotsPolicy } from './robots.js';

let robots: RobotsPolicy | undefined;

/**
 * The process's one robots.txt cache (at most 24 h per origin, RFC 9309), fetched through its
 * own egress guard: the runs worker's engines check it before every request, and the API checks
 * it before serving a cached scrape answer. Where both run in one process (local mode) they share
 * it, so a cached answer costs the site no robots.txt request the worker has not already made; a
 * separate API instance (Lambda) fetches a robots.txt at most once a day per origin.
 */
export function processRobots(config: { egressAllow: string[]; userAgent: string }): RobotsPolicy {
  if (robots) return robots;
  const guard = new EgressGuard({ allow: config.egressAllow, userAgent: config.userAgent });
  robots = new RobotsPolicy({
    userAgent: config.userAgent,
    fetch: async (url) => {
      const r = await guard.fetch(url, { timeoutMs: 10_000, maxBytes: 512 * 1024 });
      return { status: r.status, body: r.body.toString('utf8') };
    },
  });
  return robots;
}
