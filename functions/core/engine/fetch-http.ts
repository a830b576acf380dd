import { isAscii, isUtf8 } from 'node:buffer';
import type { EgressGuard } from '../governance/egress-guard.js';
import type { FetchedPage, FetchOptions } from './types.js';
import { fetchFollowingRedirects, type AdmitHop } from './follow-redirects.js';
import { isTextual, looksLikePdf, MAX_PDF_BYTES } from '../content/document.js';

/** Largest HTML or text document the http engine accepts (the pipeline refuses larger ones). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** Largest body read at all (the guard aborts beyond it): the PDF limit, the larger one. */
export const MAX_BODY_BYTES = Math.max(MAX_DOCUMENT_BYTES, MAX_PDF_BYTES);

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5';

/** Labels of one-byte Western charsets (a body under one that is valid UTF-8 is read as UTF-8). */
const ONE_BYTE_WESTERN = new Set(['iso-8859-1', 'iso8859-1', 'latin1', 'l1', 'windows-1252', 'cp1252', 'us-ascii', 'ascii']);

/**
 * The charset of a response: Content-Type first, then a `<meta charset>` in the first 2 KiB. A
 * body declared in a one-byte Western charset (ISO-8859-1, windows-1252, ASCII) that is valid
 * UTF-8 with characters beyond ASCII is UTF-8: a page saved or re-encoded as UTF-8 that kept its
 * old declaration, or a template's stale label (Latin-1 text almost never forms valid UTF-8).
 */
export function detectCharset(contentType: string | null, body: Buffer): string {
  const declared = (/charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1] ?? metaCharset(body) ?? 'utf-8').toLowerCase();
  if (ONE_BYTE_WESTERN.has(declared) && !isAscii(body) && isUtf8(body)) return 'utf-8';
  return declared;
}

/** The charset a `<meta>` in the first 2 KiB declares (read only when the header names none). */
function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString('latin1');
  return /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1] ?? /<meta[^>]+content=["'][^"']*charset=([\w-]+)/i.exec(head)?.[1];
}

/** Decode a body with its declared charset, falling back to UTF-8 for labels Node does not know. */
export function decodeBody(body: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Admits every hop as is (no robots, policy or gate): callers without governance (tests, tools). */
const admitAll: AdmitHop = async () => undefined;

/**
 * The http engine's fetch stage: one guarded GET, identifying User-Agent, capped body. Redirects
 * are followed one hop at a time (at most 10): every hop is admitted by `admitHop` (the engine's
 * robots.txt, target policy and politeness gate of the hop's own host) and re-checked by the
 * egress guard. Policy refusals surface as `target_forbidden`.
 */
export async function fetchHttp(
  guard: EgressGuard,
  url: string,
  opts: FetchOptions & { userAgent: string; admitHop?: AdmitHop },
): Promise<FetchedPage> {
  const res = await fetchFollowingRedirects(guard, url, {
    headers: { 'user-agent': opts.userAgent, accept: ACCEPT, 'accept-language': 'en;q=1, *;q=0.5' },
    maxRedirects: 10,
    maxBytes: MAX_BODY_BYTES,
    timeoutMs: opts.timeoutMs ?? 30_000,
  }, opts.admitHop ?? admitAll);
  const contentType = res.headers.get('content-type');
  // Binary bodies (and PDFs served as text or octet-stream) stay bytes for the document readers.
  const textual = isTextual(contentType) && !looksLikePdf(res.body);
  return {
    url,
    finalUrl: res.url,
    status: res.status,
    headers: res.headers,
    html: textual ? decodeBody(res.body, detectCharset(contentType, res.body)) : '',
    ...(textual ? {} : { body: res.body }),
    bytes: res.body.length,
    timingMs: res.timingMs,
    engine: 'http',
  };
}
