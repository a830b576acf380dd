import * as robotsModule from 'robots-parser';

// robots-parser is CommonJS (`module.exports = fn`) while its typings declare `export default`, so
// TypeScript (NodeNext) types the default import as the namespace; at runtime Node hands us the
// function as `default`, and some bundlers nest it once more.
type Parse = (url: string, body: string) => {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
};
const ns = robotsModule as unknown as { default?: unknown };
const robotsParser = (typeof ns.default === 'function' ? ns.default : (ns.default as { default?: unknown } | undefined)?.default) as Parse;

/** Options of {@link RobotsPolicy}. */
export interface RobotsPolicyOptions {
  /** Fetch a robots.txt (through the egress guard in production). Throwing means unreachable. */
  fetch: (url: string) => Promise<{ status: number; body: string }>;
  /** Our User-Agent; its product token (before '/') is what robots.txt groups are matched on. */
  userAgent: string;
  /** Cache lifetime of a fetched robots.txt; RFC 9309 says at most 24 h (the default). */
  ttlMs?: number;
  /** Cache lifetime of an unreachable (5xx/network) result, shorter so a blip does not block a day. */
  errorTtlMs?: number;
  /** Origins remembered at once (least recently used evicted first). */
  maxEntries?: number;
  now?: () => number;
}

/** Verdict for one URL. */
export interface RobotsDecision {
  allowed: boolean;
  /** Crawl-delay for our token (or `*`), seconds; null when none. */
  crawlDelaySeconds: number | null;
  reason: string;
}

type Rules =
  | { kind: 'parsed'; robots: ReturnType<Parse>; status: number }
  | { kind: 'allow-all' | 'disallow-all'; status: number | null; detail: string };

interface Entry {
  expiresAt: number;
  rules: Promise<Rules>;
}

// RFC 9309 2.5: crawlers must parse at least 500 KiB; ignoring the rest bounds memory.
const MAX_BODY = 500 * 1024;

/**
 * robots.txt per RFC 9309: 2xx is parsed; 4xx (and redirects left unresolved) mean no robots.txt,
 * so everything is allowed; 5xx or an unreachable host mean everything is disallowed. Results are
 * cached per origin (scheme, host, port) in a bounded LRU; concurrent checks of one origin share
 * a single fetch.
 */
export class RobotsPolicy {
  private readonly cache = new Map<string, Entry>();
  private readonly token: string;
  private readonly ttlMs: number;
  private readonly errorTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly opts: RobotsPolicyOptions) {
    this.token = opts.userAgent.split('/')[0].trim() || '*';
    this.ttlMs = Math.min(opts.ttlMs ?? 86_400_000, 86_400_000);
    this.errorTtlMs = Math.min(opts.errorTtlMs ?? 600_000, this.ttlMs);
    this.maxEntries = opts.maxEntries ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  /** May our crawler fetch `url`? */
  async check(url: string): Promise<RobotsDecision> {
    const target = new URL(url);
    const rules = await this.rulesFor(target.origin);
    if (rules.kind !== 'parsed') {
      return { allowed: rules.kind === 'allow-all', crawlDelaySeconds: null, reason: rules.detail };
    }
    const allowed = rules.robots.isAllowed(target.href, this.token) !== false;
    const delay = rules.robots.getCrawlDelay(this.token);
    return {
      allowed,
      crawlDelaySeconds: typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 ? delay : null,
      reason: allowed ? 'allowed by robots.txt' : `disallowed by robots.txt for ${this.token}`,
    };
  }

  /**
   * The `Sitemap:` URLs of the robots.txt that governs `url` (none when the origin has no
   * robots.txt or it could not be read), from the same cached fetch as {@link check}.
   */
  async sitemaps(url: string): Promise<string[]> {
    const rules = await this.rulesFor(new URL(url).origin);
    return rules.kind === 'parsed' ? rules.robots.getSitemaps() : [];
  }

  private rulesFor(origin: string): Promise<Rules> {
    const now = this.now();
    const hit = this.cache.get(origin);
    if (hit && hit.expiresAt > now) {
      // Re-insert to mark as most recently used.
      this.cache.delete(origin);
      this.cache.set(origin, hit);
      return hit.rules;
    }
    const entry: Entry = { expiresAt: now + this.ttlMs, rules: this.load(origin) };
    void entry.rules.then((r) => {
      if (r.kind === 'disallow-all') entry.expiresAt = this.now() + this.errorTtlMs;
    });
    this.cache.delete(origin);
    this.cache.set(origin, entry);
    while (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    return entry.rules;
  }

  private async load(origin: string): Promise<Rules> {
    const robotsUrl = `${origin}/robots.txt`;
    let res: { status: number; body: string };
    try {
      res = await this.opts.fetch(robotsUrl);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { kind: 'disallow-all', status: null, detail: `robots.txt unreachable (${why}): all disallowed` };
    }
    if (res.status >= 200 && res.status < 300) {
      return { kind: 'parsed', robots: robotsParser(robotsUrl, res.body.slice(0, MAX_BODY)), status: res.status };
    }
    if (res.status >= 500) {
      return { kind: 'disallow-all', status: res.status, detail: `robots.txt returned ${res.status}: all disallowed` };
    }
    return { kind: 'allow-all', status: res.status, detail: `robots.txt returned ${res.status}: all allowed` };
  }
}
