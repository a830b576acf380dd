import { AppError } from '../errors.js';
import { assertPdfStreamsBounded } from './pdf-streams.js';

/**
 * PDF documents -> markdown and text (API.md "Content options": a URL answering
 * `application/pdf`). Text comes from pdf.js through `unpdf` (its serverless build: no native
 * module, no worker thread), loaded on the first PDF so that HTML-only work never pays for it.
 *
 * Structure is recovered from the text layout, the way a reader sees it: text items are grouped
 * into lines by baseline; the font size carrying most characters is body text, and lines set
 * clearly larger (at least 15%) are headings, the largest size `#`, the next `##`, and so on;
 * within body text, a vertical gap larger than the usual line spacing starts a new paragraph, and
 * lines starting with a bullet become list items. Hyphenated line ends are joined; page numbers
 * and running heads and feet are left out.
 */

/** Pages read at most; a longer document is 422 `document_too_large`. */
export const MAX_PDF_PAGES = 500;

/** What a PDF yields. */
export interface PdfDocument {
  title: string | null;
  author: string | null;
  pages: number;
  markdown: string;
  text: string;
}

interface Line {
  text: string;
  size: number;
  y: number;
  page: number;
}

interface Block {
  kind: 'heading' | 'paragraph' | 'item';
  level: number;
  lines: string[];
}

/** The slice of a pdf.js text item read here. */
interface TextItem {
  str?: string;
  transform?: number[];
  width?: number;
  hasEOL?: boolean;
}

const BULLET = /^\s*([•◦▪▫●○■□–·*-])\s+/;

/** Group one page's text items into lines (same baseline, reading order as the PDF gives it). */
function pageLines(items: TextItem[], page: number): Line[] {
  const lines: Line[] = [];
  let cur: { parts: string[]; size: number; y: number; endX: number; chars: number } | null = null;
  const flush = () => {
    if (cur) {
      const text = cur.parts.join('').replace(/\s+/g, ' ').trim();
      if (text) lines.push({ text, size: Math.round(cur.size * 10) / 10, y: cur.y, page });
    }
    cur = null;
  };
  for (const it of items) {
    const t = it.transform;
    const str = it.str ?? '';
    if (!t) continue;
    const size = Math.hypot(t[2] ?? 0, t[3] ?? 0) || Math.abs(t[3] ?? 0) || 1;
    const x = t[4] ?? 0;
    const y = t[5] ?? 0;
    if (str) {
      if (cur && Math.abs(cur.y - y) > Math.max(cur.size, size) * 0.5) flush();
      if (!cur) cur = { parts: [], size: 0, y, endX: x, chars: 0 };
      // Items of one line with a visible gap between them are separate words.
      const last = cur.parts[cur.parts.length - 1];
      if (last !== undefined && !/\s$/.test(last) && !/^\s/.test(str) && x - cur.endX > size * 0.15) cur.parts.push(' ');
      cur.parts.push(str);
      // The line's size is the size carrying most of its characters.
      if (str.trim().length >= cur.chars) {
        cur.size = size;
        cur.chars = str.trim().length;
      }
      cur.endX = x + (it.width ?? 0);
    }
    if (it.hasEOL) flush();
  }
  flush();
  return lines;
}

/**
 * Drop page furniture: a page number alone on a page's first or last line, and running heads or
 * feet (the first or last line of a page, digits aside, repeated on at least 3 pages and on at
 * least 40% of them) after the first page.
 */
function withoutFurniture(pages: Line[][]): Line[] {
  const key = (l: Line) => l.text.replace(/\d+/g, '#').toLowerCase();
  const edges = (p: Line[]) => (p.length > 1 ? [p[0]!, p[p.length - 1]!] : p);
  const seen = new Map<string, number>();
  for (const p of pages) for (const k of new Set(edges(p).map(key))) seen.set(k, (seen.get(k) ?? 0) + 1);
  const repeated = (l: Line) => pages.length >= 3 && (seen.get(key(l)) ?? 0) >= Math.max(3, pages.length * 0.4);
  const pageNumber = (l: Line) => /^(?:(?:page|p\.|seite|página)\s*)?(?:\d{1,4}|[ivxlc]{1,7})(?:\s*(?:\/|of|de|von)\s*\d{1,4})?$/i.test(l.text) || /^[-–—]\s*\d{1,4}\s*[-–—]$/.test(l.text);
  const out: Line[] = [];
  pages.forEach((p, i) => {
    const first = p[0];
    const last = p[p.length - 1];
    for (const l of p) {
      // The first page keeps a repeated line: a document's title is often its running head too.
      if ((l === first || l === last) && (pageNumber(l) || (i > 0 && repeated(l)))) continue;
      out.push(l);
    }
  });
  return out;
}

/** Body size: the font size carrying the most characters. */
function bodySize(lines: Line[]): number {
  const chars = new Map<number, number>();
  for (const l of lines) chars.set(l.size, (chars.get(l.size) ?? 0) + l.text.length);
  let best = 0;
  let most = -1;
  for (const [size, n] of chars) if (n > most || (n === most && size < best)) [best, most] = [size, n];
  return best;
}

/** Lines -> headings, paragraphs and list items. */
function blocksOf(lines: Line[]): Block[] {
  const body = bodySize(lines);
  // Heading sizes: clearly larger than body, largest first; at most 6 levels.
  const headingSizes = [...new Set(lines.filter((l) => l.size >= body * 1.15 && l.text.length <= 200).map((l) => l.size))].sort((a, b) => b - a);
  const level = (size: number) => Math.min(6, headingSizes.indexOf(size) + 1);
  // Usual line spacing of body text: the most common gap between consecutive body lines.
  const gaps = new Map<number, number>();
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1]!, lines[i]!];
    if (a.page === b.page && a.size === body && b.size === body && a.y > b.y) {
      const g = Math.round(a.y - b.y);
      gaps.set(g, (gaps.get(g) ?? 0) + 1);
    }
  }
  let spacing = body * 1.25;
  let seen = 0;
  for (const [g, n] of gaps) if (n > seen && g > 0 && g < body * 3) [spacing, seen] = [g, n];

  const blocks: Block[] = [];
  let prev: Line | null = null;
  for (const l of lines) {
    const isHeading = headingSizes.includes(l.size);
    const bullet = BULLET.exec(l.text);
    const last = blocks[blocks.length - 1];
    // Body lines follow at the usual spacing; a heading's lines at about its own size.
    const maxGap = isHeading ? l.size * 1.6 : spacing * 1.4;
    const sameRun = prev !== null && last !== undefined && prev.page === l.page && prev.size === l.size && prev.y > l.y && prev.y - l.y <= maxGap;
    if (isHeading) {
      // A heading set on two lines stays one heading.
      if (sameRun && last!.kind === 'heading') last!.lines.push(l.text);
      else blocks.push({ kind: 'heading', level: level(l.size), lines: [l.text] });
    } else if (bullet) {
      blocks.push({ kind: 'item', level: 0, lines: [l.text.slice(bullet[0].length)] });
    } else if (sameRun && last!.kind !== 'heading') {
      last!.lines.push(l.text);
    } else {
      blocks.push({ kind: 'paragraph', level: 0, lines: [l.text] });
    }
    prev = l;
  }
  return blocks;
}

/** Join a block's lines: "exam-" + "ple" -> "example", else a space. */
function joinLines(lines: string[]): string {
  let out = '';
  for (const line of lines) {
    if (!out) out = line;
    else if (/[a-zà-ÿ]-$/.test(out) && /^[a-zà-ÿ]/.test(line)) out = out.slice(0, -1) + line;
    else out += ` ${line}`;
  }
  return out;
}

const escapeInline = (s: string) => s.replace(/([\\`*_[\]<])/g, '\\$1');

/** A paragraph's text, escaped so that it cannot start a heading, quote or list. */
const escapeParagraph = (s: string) =>
  escapeInline(s)
    .replace(/^(#{1,6}\s|>|[-+]\s)/, '\\$1')
    .replace(/^(\d+)([.)]\s)/, '$1\\$2');

function render(blocks: Block[]): { markdown: string; text: string } {
  let markdown = '';
  const text: string[] = [];
  blocks.forEach((b, i) => {
    const t = joinLines(b.lines);
    text.push(t);
    // List items of one list are separated by a single newline, every other block by a blank line.
    if (i > 0) markdown += b.kind === 'item' && blocks[i - 1]!.kind === 'item' ? '\n' : '\n\n';
    if (b.kind === 'heading') markdown += `${'#'.repeat(b.level)} ${escapeInline(t)}`;
    else if (b.kind === 'item') markdown += `- ${escapeInline(t)}`;
    else markdown += escapeParagraph(t);
  });
  return { markdown, text: text.join('\n') };
}

type PdfJsDocument = {
  numPages: number;
  getPage(n: number): Promise<{ getTextContent(): Promise<{ items: unknown[] }>; cleanup(): unknown }>;
  destroy(): Promise<unknown>;
};

/**
 * Read a PDF: metadata (title, author, page count), markdown and text.
 *
 * @param bytes the document as received
 * @param opts.deadline epoch ms after which reading stops with 504 `timed_out` (checked between pages)
 * @param opts.maxPages pages allowed ({@link MAX_PDF_PAGES} by default)
 * @throws AppError 422 `document_too_complex` (a stream inflates past its limit), 422 `document_too_large` (page limit), 422 `document_unreadable` (not a PDF pdf.js can open, or encrypted)
 */
export async function readPdf(bytes: Uint8Array, opts: { deadline?: number; maxPages?: number } = {}): Promise<PdfDocument> {
  // What its streams inflate to is bounded before pdf.js inflates them (pdf-streams.ts).
  assertPdfStreamsBounded(bytes);
  const { getDocumentProxy, getMeta } = await import('unpdf');
  const maxPages = opts.maxPages ?? MAX_PDF_PAGES;
  let doc: PdfJsDocument;
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
    doc = (await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: false })) as unknown as PdfJsDocument;
  } catch (err) {
    const reason = (err as Error)?.name === 'PasswordException' ? 'it is encrypted with a password' : (err as Error)?.message ?? 'unknown error';
    throw new AppError(422, 'document_unreadable', `The PDF could not be read: ${reason}`);
  }
  try {
    if (doc.numPages > maxPages) {
      throw new AppError(422, 'document_too_large', `The PDF has ${doc.numPages} pages; at most ${maxPages} are read`);
    }
    let info: Record<string, unknown> = {};
    try {
      info = ((await getMeta(doc as never)).info ?? {}) as Record<string, unknown>;
    } catch {
      /* metadata is optional */
    }
    const pages: Line[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      if (opts.deadline !== undefined && Date.now() > opts.deadline) {
        throw new AppError(504, 'timed_out', `Reading the PDF did not finish in time (page ${n} of ${doc.numPages})`);
      }
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      pages.push(pageLines(content.items as TextItem[], n));
      page.cleanup();
    }
    const { markdown, text } = render(blocksOf(withoutFurniture(pages)));
    const str = (v: unknown) => (typeof v === 'string' && v.replace(/\s+/g, ' ').trim() ? v.replace(/\s+/g, ' ').trim() : null);
    const firstHeading = /^#{1,6} (.+)$/m.exec(markdown)?.[1]?.replace(/\\(.)/g, '$1') ?? null;
    return { title: str(info.Title) ?? firstHeading, author: str(info.Author), pages: doc.numPages, markdown, text };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
