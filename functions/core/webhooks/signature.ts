import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Standard Webhooks secrets: `whsec_` + base64 of 24-64 random bytes (we use 32). */
export const SECRET_PREFIX = 'whsec_';
export const generateWebhookSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** The key bytes of a `whsec_…` secret (the part after the prefix, base64-decoded). */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('A webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/**
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` (Standard Webhooks, symmetric). The body
 * is signed exactly as sent, so the receiver must verify the raw bytes, not re-serialised JSON.
 */
export function signPayload(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers plus the JSON content type. */
export function webhookHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signPayload(secret, id, timestamp, body),
  };
}

/**
 * Receiver-side check (what a customer runs; used by our tests): any of the space-separated
 * `v1,…` signatures matches, and the timestamp is within `toleranceSeconds` of `now`.
 */
export function verifySignature(
  secret: string, headers: { id: string; timestamp: string; signature: string }, body: string, now = Date.now(), toleranceSeconds = 300,
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(now / 1000 - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(signPayload(secret, headers.id, ts, body).slice(3), 'base64');
  return headers.signature.split(' ').some((part) => {
    const [version, sig] = part.split(',');
    if (version !== 'v1' || !sig) return false;
    const got = Buffer.from(sig, 'base64');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
