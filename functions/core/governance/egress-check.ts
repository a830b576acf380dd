import { AppError, targetForbidden } from '../errors.js';
import { assertTargetShape, classifyAddress, isIpLiteral, parseTargetUrl } from './ip-classifier.js';

/** Options of {@link EgressCheck} (and of EgressGuard, which adds the connect timeout). */
export interface EgressCheckOptions {
  /** Exact `host:port` pairs exempt from the private-address block (GLEANER_EGRESS_ALLOW). */
  allow: string[];
  /** Resolve a host name to addresses. Injectable so tests never touch a real resolver. */
  resolve?: (host: string) => Promise<string[]>;
  /** Identifying User-Agent sent when the caller sets none. */
  userAgent: string;
  /** Called once per refusal (bad scheme, private address, forbidden redirect, connect-time refusal). */
  onBlocked?: (url: string, reason: string) => void;
}

// node:dns/promises is loaded on the first lookup: every API function wires the guard (bucket
// sync), few resolve a host, and loading the module at init cost each of them.
const defaultResolve = async (host: string): Promise<string[]> =>
  (await (await import('node:dns/promises')).lookup(host, { all: true })).map((a) => a.address);

/** Bracket a bare IPv6 literal so it can sit in a URL authority. */
const bracket = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/**
 * Canonical `host:port` key. The host goes through the WHATWG parser so `LOCALHOST`, `[0::1]` and
 * `[::1]` compare equal to what a parsed URL reports.
 */
export function hostPortKey(host: string, port: number | string): string {
  return `${new URL(`http://${bracket(host)}/`).hostname}:${Number(port)}`;
}

/** Effective port of an http(s) URL (the URL API reports '' for the scheme default). */
export const portOf = (url: URL): number => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

const isForbidden = (err: unknown): err is AppError => err instanceof AppError && err.code === 'target_forbidden';

/**
 * The address half of the egress guard: decides whether a destination may be reached, without any
 * HTTP client. A destination is reachable when every address its host resolves to is public
 * unicast, or when its exact `host:port` is in the allow list (local fixtures). API functions use
 * it to refuse a target up front (400 `target_forbidden`); {@link EgressGuard} (egress-guard.ts)
 * adds the connection side, kept apart so that checking a URL never bundles an HTTP client.
 */
export class EgressCheck {
  readonly userAgent: string;
  private readonly allow: Set<string>;
  private readonly resolve: (host: string) => Promise<string[]>;
  private readonly onBlocked?: (url: string, reason: string) => void;

  constructor(opts: EgressCheckOptions) {
    this.allow = new Set(
      opts.allow.map((pair) => {
        const m = /^(\[[^\]]+\]|[^:\s]+):(\d{1,5})$/.exec(pair.trim());
        if (!m) throw new Error(`Egress allow entry ${JSON.stringify(pair)} is not host:port`);
        return hostPortKey(m[1], m[2]);
      }),
    );
    this.resolve = opts.resolve ?? defaultResolve;
    this.userAgent = opts.userAgent;
    this.onBlocked = opts.onBlocked;
  }
  /** True when `host:port` is exempt from the private-address block. */
  isAllowed(host: string, port: number | string): boolean {
    return this.allow.has(hostPortKey(host, port));
  }

  /**
   * Validate a target before any connection: scheme, credentials, odd IP spellings, then every
   * resolved address. Returns the parsed URL.
   * @throws AppError 400 `target_forbidden` (and reports it to `onBlocked`).
   */
  async checkUrl(url: string | URL): Promise<URL> {
    return (await this.checkTarget(url)).url;
  }

  /**
   * Like {@link checkUrl}, also returning the vetted address that a caller dialling by itself (the
   * egress proxy) must connect to instead of resolving the name again.
   * @throws AppError 400 `target_forbidden` (and reports it to `onBlocked`).
   */
  async checkTarget(url: string | URL): Promise<{ url: URL; address: string }> {
    const label = String(url);
    try {
      const parsed = typeof url === 'string' ? parseTargetUrl(url) : new URL(url.href);
      assertTargetShape(parsed);
      return { url: parsed, address: await this.vet(parsed.hostname, portOf(parsed)) };
    } catch (err) {
      if (isForbidden(err)) this.onBlocked?.(label, err.message);
      throw err;
    }
  }

  /**
   * Vet a raw `host:port` (CONNECT tunnels, connect-time checks) and return the address to connect
   * to. Callers must connect to that address, not re-resolve the name.
   * @throws AppError 400 `target_forbidden` (and reports it to `onBlocked` under `label`).
   */
  async checkHost(host: string, port: number, label = `${bracket(host)}:${port}`): Promise<string> {
    try {
      return await this.vet(host, port);
    } catch (err) {
      if (isForbidden(err)) this.onBlocked?.(label, err.message);
      throw err;
    }
  }

  private async vet(rawHost: string, port: number): Promise<string> {
    const host = rawHost.startsWith('[') ? rawHost.slice(1, -1) : rawHost;
    const addresses = isIpLiteral(host) ? [host] : await this.resolve(host.replace(/\.$/, ''));
    if (addresses.length === 0) throw new Error(`Host ${host} resolved to no addresses`);
    // Prefer IPv4: many runtimes (Lambda included) have no IPv6 egress, and we connect to one address.
    const ordered = [...addresses].sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
    if (this.isAllowed(host, port)) return ordered[0];
    for (const addr of ordered) {
      const { allowed, range } = classifyAddress(addr);
      if (!allowed) {
        const via = addr === host ? '' : ` resolves to ${addr} which`;
        throw targetForbidden(`Target ${bracket(host)}:${port}${via} is not a public address (range ${range})`);
      }
    }
    return ordered[0];
  }
}
