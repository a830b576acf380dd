import { describe, expect, it } from 'vitest';
import { AppError } from '../../../functions/core/errors.js';
import { readPdf } from '../../../functions/core/content/pdf.js';
import { documentKind, isTextual, looksLikePdf, mediaType } from '../../../functions/core/content/document.js';
import { makePdf, reportPdf, type PdfLine } from '../../fixtures/pdf/make-pdf.js';

/** Lines of body text 14 pt apart from `y` down. */
const body = (y: number, ...texts: string[]): PdfLine[] => texts.map((text, i) => ({ text, size: 10, y: y - i * 14 }));

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('readPdf', () => {
  it('finds headings by relative size and paragraphs by line gaps (two-page report)', async () => {
    const doc = await readPdf(reportPdf());
    expect(doc).toMatchObject({ title: 'Quarterly Field Report', author: 'Ana Lima', pages: 2 });
    expect(doc.markdown.split('\n\n').map((b) => b.split(' ')[0])).toEqual(['#', '##', 'The', 'Counts', '##', 'Each', '##', 'Warblers:', '###', 'Repeat']);
  });

  it('joins hyphenated line ends, keeps a two-line heading whole, makes bullets list items, escapes markdown', async () => {
    const doc = await readPdf(
      makePdf({
        pages: [
          [
            { text: 'A heading set on', size: 20, y: 720 },
            { text: 'two lines', size: 20, y: 696 },
            ...body(660, 'The measure-', 'ments were taken *twice* at [each] site.'),
            ...body(610, '- first bullet', '- second bullet'),
            ...body(560, '1. not a list: a sentence that starts with a number.'),
            ...body(520, '# not a heading either'),
          ],
        ],
      }),
    );
    expect(doc.markdown).toBe(
      [
        '# A heading set on two lines',
        'The measurements were taken \\*twice\\* at \\[each\\] site.',
        '- first bullet\n- second bullet',
        '1\\. not a list: a sentence that starts with a number.',
        '\\# not a heading either',
      ].join('\n\n'),
    );
    expect(doc.text).toBe('A heading set on two lines\nThe measurements were taken *twice* at [each] site.\nfirst bullet\nsecond bullet\n1. not a list: a sentence that starts with a number.\n# not a heading either');
    // No Info title: the first heading stands in; no author: null.
    expect(doc.title).toBe('A heading set on two lines');
    expect(doc.author).toBeNull();
  });

  it('treats a document in one size as paragraphs only', async () => {
    const doc = await readPdf(makePdf({ pages: [body(700, 'Line one of the first paragraph', 'line two.'), body(640, 'Second paragraph.')] }));
    expect(doc.markdown).toBe('Line one of the first paragraph line two.\n\nSecond paragraph.');
    expect(doc.title).toBeNull();
  });

  it('leaves out page numbers and running heads, but keeps the title they repeat on page 1', async () => {
    const page = (n: number, text: string): PdfLine[] => [{ text: 'Field Guide to Warblers', size: n === 1 ? 18 : 8, y: 760 }, ...body(700, text), { text: n === 2 ? `Page ${n} of 4` : String(n), size: 8, y: 40 }];
    const doc = await readPdf(makePdf({ pages: [page(1, 'First page text.'), page(2, 'Second page text.'), page(3, 'Third page text.'), page(4, 'Fourth page text.')] }));
    expect(doc.markdown).toBe('# Field Guide to Warblers\n\nFirst page text.\n\nSecond page text.\n\nThird page text.\n\nFourth page text.');
  });

  it('refuses more pages than allowed, before reading them', async () => {
    const err = await failure(readPdf(makePdf({ pages: [body(700, 'a'), body(700, 'b'), body(700, 'c')] }), { maxPages: 2 }));
    expect(err).toMatchObject({ status: 422, code: 'document_too_large', message: 'The PDF has 3 pages; at most 2 are read' });
  });

  it('stops at the deadline', async () => {
    const err = await failure(readPdf(reportPdf(), { deadline: Date.now() - 1 }));
    expect(err).toMatchObject({ status: 504, code: 'timed_out' });
  });

  it('answers document_unreadable for bytes that are not a PDF', async () => {
    const err = await failure(readPdf(Buffer.from('%PDF-1.4\nnothing here')));
    expect(err).toMatchObject({ status: 422, code: 'document_unreadable' });
  });
});

describe('documentKind', () => {
  const pdf = reportPdf();
  it.each([
    ['text/html; charset=utf-8', undefined, 'html'],
    [null, undefined, 'html'],
    ['application/xhtml+xml', undefined, 'html'],
    ['text/plain', undefined, 'html'],
    ['application/json', undefined, 'html'],
    ['application/rss+xml', undefined, 'html'],
    ['application/pdf', undefined, 'pdf'],
    ['application/x-pdf', undefined, 'pdf'],
    ['application/octet-stream', pdf, 'pdf'],
    ['text/plain', pdf, 'pdf'],
    ['application/octet-stream', Buffer.from('PK\x03\x04'), 'unsupported'],
    ['image/png', undefined, 'unsupported'],
    ['application/zip', undefined, 'unsupported'],
  ] as const)('%s (%s bytes) -> %s', (type, bytes, kind) => expect(documentKind(type, bytes)).toBe(kind));

  it('reads media types and PDF headers', () => {
    expect(mediaType('Application/PDF; name=x.pdf')).toBe('application/pdf');
    expect(mediaType(undefined)).toBe('text/html');
    expect(looksLikePdf(Buffer.from('\ufeff%PDF-1.7'))).toBe(true);
    expect(looksLikePdf(Buffer.from('<html>%PDF-1.7'))).toBe(false);
    expect(isTextual('image/svg+xml')).toBe(true);
    expect(isTextual('video/mp4')).toBe(false);
  });
});
