/**
 * Which reader a fetched body goes to, by its media type (and a look at its first bytes):
 *
 * - `html`: HTML and XHTML, and every textual type (text/*, JSON, XML, JavaScript) as before:
 *   parsed as a document whose text is the content. A missing Content-Type is sniffed as HTML.
 * - `pdf`: `application/pdf` (or `application/x-pdf`), or any body starting with `%PDF-`.
 * - `unsupported`: any other binary type (images, archives, office files, audio, video…). The
 *   page is refused with 422 `unsupported_content_type` rather than returned with empty content:
 *   an empty result reads as "the page has no text", which is not what happened.
 */
export type DocumentKind = 'html' | 'pdf' | 'unsupported';

/** The media type of a Content-Type header, lowercased, without parameters; `text/html` when absent. */
export function mediaType(contentType: string | null | undefined): string {
  const t = contentType?.split(';')[0]?.trim().toLowerCase();
  return t || 'text/html';
}

/** Does this body start like a PDF file (`%PDF-`, after at most a BOM or whitespace)? */
export function looksLikePdf(body: Uint8Array | undefined): boolean {
  if (!body || body.length < 5) return false;
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, 64)).toString('latin1');
  return /^(?:\xef\xbb\xbf)?\s*%PDF-/.test(head);
}

const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf', 'application/acrobat']);
const TEXTUAL = /^text\/|[+/](?:html|xml|json)$|^application\/(?:xhtml\+xml|xml|json|javascript|ecmascript|ld\+json|rss\+xml|atom\+xml)$/;

/** Whether a response of this Content-Type is read as text (decoded) rather than kept as bytes. */
export function isTextual(contentType: string | null | undefined): boolean {
  return !contentType?.trim() || TEXTUAL.test(mediaType(contentType));
}

/** The reader for a fetched body. `body` is the raw bytes when the fetcher kept them. */
export function documentKind(contentType: string | null | undefined, body?: Uint8Array): DocumentKind {
  const type = mediaType(contentType);
  if (PDF_TYPES.has(type)) return 'pdf';
  // Servers label PDFs application/octet-stream, binary/octet-stream, even text/plain.
  if (looksLikePdf(body)) return 'pdf';
  return isTextual(contentType) ? 'html' : 'unsupported';
}

/** Largest PDF read, in bytes (HTML and other text keep the engine's own limit). */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;
