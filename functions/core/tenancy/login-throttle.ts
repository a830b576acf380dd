import { createHash } from 'node:crypto';
import { rateLimited } from '../errors.js';
import type { RateLimiter } from '../limits/rate-limiter.js';

/** Password attempts allowed per account (email) and per client address in one window. */
export const LOGIN_LIMITS = { perAccount: 10, perClient: 30, windowSeconds: 900 } as const;

/** Rate buckets live under a pseudo-tenant no real tenant id (`ten_…`) can collide with. */
const SCOPE = 'login';
const digest = (v: string) => createHash('sha256').update(v).digest('hex').slice(0, 32);

/**
 * Throttle console password logins before any password is checked: per account, so one mailbox
 * cannot be brute-forced from many addresses, and per client address, so one client cannot spray
 * many accounts. Unknown emails are throttled exactly like known ones (no enumeration through 429s).
 * @throws AppError 429 `rate_limited` with Retry-After
 */
export async function throttleLogin(limiter: RateLimiter, email: string, clientIp: string | null, now: Date): Promise<void> {
  const { perAccount, perClient, windowSeconds } = LOGIN_LIMITS;
  const account = await limiter.take(SCOPE, `acct#${digest(email.trim().toLowerCase())}`, perAccount, windowSeconds, now);
  if (!account.allowed) throw rateLimited(account.retryAfterSeconds);
  if (clientIp) {
    const client = await limiter.take(SCOPE, `ip#${digest(clientIp)}`, perClient, windowSeconds, now);
    if (!client.allowed) throw rateLimited(client.retryAfterSeconds);
  }
}
