import { inflateSync } from 'node:zlib';
import { tooComplex } from '../limits/budget.js';

/**
 * A static limit on what a PDF's compressed streams inflate to, checked before pdf.js reads it
 * (issue 27): a 156 KB file may hold an 80 MB Flate stream, which pdf.js would inflate in full
 * and then parse as page content. zlib's `maxOutputLength` stops each inflate at the limit, so the
 * check itself costs at most the limit. Image streams are skipped: text extraction never decodes
 * them. The check runs on the budget thread with the rest of the reading (budget-tasks.ts).
 */
export const PDF_STREAM_LIMITS = {
  /** One stream, inflated. */
  maxStreamBytes: 16 * 1024 * 1024,
  /** Every stream of the document, inflated. */
  maxTotalBytes: 64 * 1024 * 1024,
} as const;

const MB = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;

/** Throws 422 `document_too_complex` naming the limit when a stream (or all of them) inflates past it. */
export function assertPdfStreamsBounded(bytes: Uint8Array, limits: { maxStreamBytes: number; maxTotalBytes: number } = PDF_STREAM_LIMITS): void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // latin1: one character per byte, so string offsets are byte offsets.
  const text = buf.toString('latin1');
  const KEYWORD = /stream\r?\n/g;
  let total = 0;
  let m: RegExpExecArray | null;
  while ((m = KEYWORD.exec(text))) {
    // `endstream` itself ends with "stream" and is never followed by a newline and data of ours.
    if (m.index >= 3 && text.slice(m.index - 3, m.index) === 'end') continue;
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end === -1) break;
    // The stream's dictionary: the text since the previous `obj` keyword (bounded look-back).
    const dict = text.slice(Math.max(0, m.index - 1024), m.index);
    const own = dict.slice(dict.lastIndexOf('obj') + 1);
    KEYWORD.lastIndex = end + 9;
    if (/\/Subtype\s*\/Image/.test(own) || !/\/(FlateDecode|Fl)\b/.test(own)) continue;
    const left = limits.maxTotalBytes - total;
    let out: Buffer;
    try {
      out = inflateSync(buf.subarray(start, end), { maxOutputLength: Math.max(1, Math.min(limits.maxStreamBytes, left)), finishFlush: 2 /* Z_SYNC_FLUSH: a truncated stream is read as far as it goes */ });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) {
        throw tooComplex('document', left < limits.maxStreamBytes
          ? `its compressed streams inflate to more than ${MB(limits.maxTotalBytes)} in all`
          : `a compressed stream inflates to more than ${MB(limits.maxStreamBytes)}`);
      }
      continue; // not zlib data after all: pdf.js decides what to make of it
    }
    total += out.length;
  }
}
