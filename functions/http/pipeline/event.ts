import { AppError, badRequest } from '../../core/errors.js';
import type { Event } from './types.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export const header = (e: Event, name: string): string | undefined => {
  const h = e.headers ?? {};
  return h[name] ?? h[name.toLowerCase()] ?? Object.entries(h).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
};

/** Parse a JSON body: 413 when too large, 415 for another content type, 400 when malformed. */
export function parseJsonBody(e: Event): unknown {
  if (e.body === undefined || e.body === null || e.body === '') return undefined;
  const raw = e.isBase64Encoded ? Buffer.from(e.body, 'base64').toString('utf8') : e.body;
  if (Buffer.byteLength(raw) > MAX_BODY_BYTES)
    throw new AppError(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes`);
  // The media type alone, parameters (charset) dropped: `application/jsonx` is not JSON.
  const ct = (header(e, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (ct !== 'application/json' && !/^application\/[\w.-]+\+json$/.test(ct))
    throw new AppError(415, 'unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json');
  if (jsonDepthExceeds(raw, MAX_JSON_DEPTH))
    throw badRequest(`The request body nests arrays and objects more than ${MAX_JSON_DEPTH} deep`);
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest('The request body is not valid JSON');
  }
}

/** No request needs deeper JSON; recursive code downstream (zod, the MCP SDK) must never see it. */
export const MAX_JSON_DEPTH = 64;

/** Does the JSON text nest `[`/`{` deeper than `max`? One linear pass, strings skipped. */
export function jsonDepthExceeds(raw: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

export const rawBody = (e: Event): string =>
  e.body ? (e.isBase64Encoded ? Buffer.from(e.body, 'base64').toString('utf8') : e.body) : '';

export const userAgent = (e: Event) => e.requestContext?.http?.userAgent ?? header(e, 'user-agent') ?? null;

/**
 * The origin for absolute links in responses: GLEANER_PUBLIC_URL when set, otherwise the domain
 * the request actually reached (API Gateway's domainName; locally the Host the server answered).
 * X-Forwarded-Host/-Proto are client-supplied and never trusted: they would let anyone make the
 * service hand out links to another site.
 */
export function origin(e: Event, fallback?: string): string {
  if (fallback) return fallback.replace(/\/$/, '');
  const raw = e.requestContext?.domainName ?? header(e, 'host') ?? '127.0.0.1';
  const host = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i.test(raw) ? raw : '127.0.0.1';
  const proto = /^(127\.|localhost(:|$)|\[::1\])/.test(host) ? 'http' : 'https';
  return `${proto}://${host}`;
}

export function cookie(e: Event, name: string): string | undefined {
  const all = [...(e.cookies ?? []), ...(header(e, 'cookie') ?? '').split(';')];
  for (const c of all) {
    const [k, ...v] = c.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}
