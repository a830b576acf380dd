import { createHash } from 'node:crypto';
import { SourceError } from './types.js';

/**
 * OAuth access tokens of the source connectors (Reddit, TikTok), cached per tenant + source +
 * credentials until shortly before they expire, so a query (and the next ones in the same process)
 * reuse one token instead of asking for a new one every time.
 *
 * Why in-process with a TTL rather than in the table: a token is a bearer secret; storing it in the
 * table would need a KMS encrypt on write and a KMS decrypt on every read, which costs about what
 * the token request it saves costs. A warm Lambda container serves many invocations, so the cache
 * hits where it matters (a job's runs, a burst of queries), and a miss costs one token request.
 * Tenant isolation: the key holds the tenant id and a SHA-256 fingerprint of the credentials, so a
 * tenant never gets another tenant's token, and changed credentials never reuse the old token.
 */

/** Renew this long before the platform's expiry (clock skew, a long query). */
export const TOKEN_EXPIRY_MARGIN_MS = 5 * 60_000;
/** Most tokens kept; the oldest entries go first. */
const MAX_ENTRIES = 1000;

export interface CachedToken {
  token: string;
  expiresAt: number;
}

/** A small TTL cache of tokens. */
export class TokenCache {
  private readonly entries = new Map<string, CachedToken>();

  get(key: string, now: number): string | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt - TOKEN_EXPIRY_MARGIN_MS <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.token;
  }

  set(key: string, token: string, expiresAt: number): void {
    this.entries.delete(key);
    this.entries.set(key, { token, expiresAt });
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The process-wide cache (one per Lambda container / local server). */
export const processTokenCache = new TokenCache();

/** Cache key: tenant, source and a fingerprint of the credentials (never the secret itself). */
export function tokenCacheKey(tenantId: string, source: string, credentials: Record<string, string | undefined>): string {
  const fp = createHash('sha256')
    .update(JSON.stringify(Object.entries(credentials).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b))))
    .digest('base64url');
  return `${tenantId}\u0000${source}\u0000${fp}`;
}

/** A token just obtained: its value and lifetime in seconds (the OAuth `expires_in`). */
export interface FreshToken {
  token: string;
  expiresInSeconds?: number;
}

export interface WithTokenOptions {
  cache: TokenCache;
  /** Undefined (no tenant known) → no caching. */
  key: string | undefined;
  now: () => number;
  /** Asks the platform for a new token. */
  fetchToken: () => Promise<FreshToken>;
}

/** Default lifetime when the platform does not say (`expires_in` missing): one hour. */
const DEFAULT_LIFETIME_S = 3600;

/**
 * Runs `call(token)` with a cached token (or a new one), and when the platform answers 401 — the
 * token expired or was revoked mid-query — drops it, gets a new token and runs `call` once more.
 * A second 401 is reported as rejected credentials.
 */
export async function withToken<T>(o: WithTokenOptions, call: (token: string) => Promise<T>): Promise<T> {
  const obtain = async (): Promise<string> => {
    const t = await o.fetchToken();
    const expiresAt = o.now() + (t.expiresInSeconds ?? DEFAULT_LIFETIME_S) * 1000;
    if (o.key) o.cache.set(o.key, t.token, expiresAt);
    // Without a tenant (no shared cache) the token still serves every call made with these options.
    local.set(o, { token: t.token, expiresAt });
    return t.token;
  };
  const mine = local.get(o);
  let token = (o.key ? o.cache.get(o.key, o.now()) : undefined) ?? (mine && mine.expiresAt - TOKEN_EXPIRY_MARGIN_MS > o.now() ? mine.token : undefined) ?? (await obtain());
  try {
    return await call(token);
  } catch (err) {
    if (!(err instanceof SourceError) || err.status !== 401) throw err;
    if (o.key) o.cache.delete(o.key);
    local.delete(o);
    token = await obtain();
    return call(token);
  }
}

/** Tokens of one options object (one connector run), for runs without a tenant key. */
const local = new WeakMap<WithTokenOptions, CachedToken>();
