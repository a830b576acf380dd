import { describe, expect, it } from 'vitest';
import { readPdf } from '../../../functions/core/content/pdf.js';
import { assertPdfStreamsBounded } from '../../../functions/core/content/pdf-streams.js';
import { pdfBomb } from '../../fixtures/pdf/pdf-bomb.js';
import { makePdf } from '../../fixtures/pdf/make-pdf.js';

// Issue 27: a PDF's compressed streams are bounded before pdf.js inflates them.

describe('PDF bombs', () => {
  it('an 80 MB Flate stream in a small file is 422 document_too_complex, naming the limit, without inflating it all', async () => {
    const bomb = pdfBomb(80);
    expect(bomb.length).toBeLessThan(200 * 1024);
    await expect(readPdf(new Uint8Array(bomb))).rejects.toMatchObject({ status: 422, code: 'document_too_complex', message: expect.stringContaining('16 MB') });
  });

  it('many streams under the per-stream limit are bounded in total', () => {
    expect(() => assertPdfStreamsBounded(new Uint8Array(pdfBomb(3)), { maxStreamBytes: 4 * 1024 * 1024, maxTotalBytes: 2 * 1024 * 1024 })).toThrow(expect.objectContaining({ code: 'document_too_complex' }));
  });

  it('an honest PDF passes the check and reads as before', async () => {
    const pdf = makePdf({ pages: [[{ text: 'Hello budgets', size: 12, y: 700 }]] });
    expect(() => assertPdfStreamsBounded(pdf)).not.toThrow();
    expect((await readPdf(pdf)).text).toContain('Hello budgets');
  });
});
