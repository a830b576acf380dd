import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { ORIGIN_VERIFY_HEADER, type Config } from '../../config.js';
import { AppError } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { header } from './event.js';
import type { Event } from './types.js';

/** Events whose origin secret matched: only their CloudFront-Viewer-Address is believed. */
const viaCloudFront = new WeakSet<Event>();

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * In aws mode a request must carry the secret CloudFront adds as an origin header (CDK gives
 * CloudFront and the function the same generated value). Without it (someone calling the
 * execute-api endpoint directly, around CloudFront and its WAF) the answer is 403, and a
 * function deployed without the secret refuses everything rather than run unguarded.
 * Local mode has no CloudFront and no check.
 */
export function checkOrigin(event: Event, cfg: Pick<Config, 'mode' | 'originSecret'>): void {
  if (cfg.mode !== 'aws') return;
  const given = header(event, ORIGIN_VERIFY_HEADER);
  if (cfg.originSecret && given !== undefined && sameSecret(given, cfg.originSecret)) {
    viaCloudFront.add(event);
    return;
  }
  log.security('request bypassed CloudFront', {
    reason: cfg.originSecret ? (given === undefined ? 'missing origin header' : 'wrong origin header') : 'GLEANER_ORIGIN_SECRET not configured',
    ip: event.requestContext?.http?.sourceIp,
    path: event.rawPath,
  });
  throw new AppError(403, 'forbidden', 'This endpoint only answers requests made through the service domain');
}

/**
 * "203.0.113.7:46532" or "2001:db8::1:46532" (CloudFront writes IPv6 without brackets) -> the
 * address; undefined when it is not an address and port.
 */
export function parseViewerAddress(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const v = value.trim();
  const bracketed = /^\[([^\]]+)\]:\d{1,5}$/.exec(v);
  const ip = bracketed ? bracketed[1]! : /^(.+):\d{1,5}$/.exec(v)?.[1];
  return ip && isIP(ip) ? ip : undefined;
}

/**
 * The client's address for audit and security logs. Behind CloudFront the TCP peer is a
 * CloudFront edge, so the viewer comes from CloudFront-Viewer-Address, which is believed only
 * when the origin check proved CloudFront sent the request (anyone else could set it).
 */
export function viewerIp(event: Event): string | null {
  const fallback = event.requestContext?.http?.sourceIp ?? null;
  if (!viaCloudFront.has(event)) return fallback;
  return parseViewerAddress(header(event, 'cloudfront-viewer-address')) ?? fallback;
}
