import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../functions/core/errors.js';
import { pageContent } from '../../../functions/core/scrapers/registry.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { BROWSER_BINARIES } from '../../support/browser-binaries.js';
import { collectingContext, makeHarness, type Harness } from './harness.js';

let site: FixtureSite;
let h: Harness;

beforeAll(async () => {
  site = await startFixtureSite();
  h = makeHarness({ fixturePort: site.port });
});

afterAll(async () => {
  await h?.close();
  await site?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;

const REPORT_MD = [
  '# Quarterly Field Report',
  '## Summary',
  'The survey covered twelve sites along the river and counted birds at dawn on three mornings per site.',
  'Counts were higher than last year at nine of the twelve sites, with warblers up by a third.',
  '## Methods',
  'Each count lasted ten minutes. Observers recorded every bird seen or heard within fifty metres.',
  '## Results',
  'Warblers: 214 (last year 160). Thrushes: 88 (last year 91).',
  '### Next steps',
  'Repeat the survey in the autumn.',
].join('\n\n');

/** The AppError a promise rejects with. */
async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

// PDFs are built by test/fixtures/pdf/make-pdf.ts (Helvetica text at two font sizes and more)
// and served by the fixture site under /docs/.
describe('PDF documents through the engine', () => {
  it.each(['http', 'auto'] as const)('gives markdown with headings and paragraphs, text, metadata and content_type (%s)', async (engine) => {
    const page = await h.engine.scrapePage(url('/docs/report.pdf'), { engine, formats: ['markdown', 'text', 'links', 'metadata', 'html'] });
    expect(page).toMatchObject({ status_code: 200, engine_used: 'http', content_type: 'application/pdf', title: 'Quarterly Field Report', links: [], html: '' });
    expect(page.markdown).toBe(REPORT_MD);
    expect(page.text!.split('\n')).toEqual([
      'Quarterly Field Report',
      'Summary',
      'The survey covered twelve sites along the river and counted birds at dawn on three mornings per site.',
      'Counts were higher than last year at nine of the twelve sites, with warblers up by a third.',
      'Methods',
      'Each count lasted ten minutes. Observers recorded every bird seen or heard within fifty metres.',
      'Results',
      'Warblers: 214 (last year 160). Thrushes: 88 (last year 91).',
      'Next steps',
      'Repeat the survey in the autumn.',
    ]);
    expect(page.metadata).toEqual({
      title: 'Quarterly Field Report', author: 'Ana Lima', pages: 2,
      description: null, canonical: null, lang: null, og: {},
      published_at: null, modified_at: null, site_name: null, language: null, image: null, type: null, page_kind: null,
    });
    if (engine === 'auto') expect(page.auto_reason).toBeNull();
  });

  it('reads a PDF served as application/octet-stream by its %PDF- header', async () => {
    const page = await h.engine.scrapePage(url('/docs/report-download'), { engine: 'http', formats: ['markdown'] });
    expect(page.content_type).toBe('application/pdf');
    expect(page.markdown).toBe(REPORT_MD);
  });

  it('refuses a PDF over the page limit with 422 document_too_large', async () => {
    const err = await failure(h.engine.scrapePage(url('/docs/many-pages.pdf'), { engine: 'http' }));
    expect(err).toMatchObject({ status: 422, code: 'document_too_large' });
    expect(err.message).toContain('501 pages; at most 500');
  });

  it('refuses a body over the size limit with 422 document_too_large (the download stops at the limit)', async () => {
    const err = await failure(h.engine.scrapePage(url('/docs/huge.pdf'), { engine: 'http' }));
    expect(err).toMatchObject({ status: 422, code: 'document_too_large' });
    expect(err.message).toMatch(/larger than 20 MB/);
  });

  it('answers 422 document_unreadable for a file that only starts like a PDF', async () => {
    const err = await failure(h.engine.scrapePage(url('/docs/broken.pdf'), { engine: 'http' }));
    expect(err).toMatchObject({ status: 422, code: 'document_unreadable' });
  });

  it('refuses other binary types with 422 unsupported_content_type', async () => {
    for (const p of ['/docs/archive.zip', '/assets/img/logo.png']) {
      const err = await failure(h.engine.scrapePage(url(p), { engine: 'http' }));
      expect(err).toMatchObject({ status: 422, code: 'unsupported_content_type' });
      expect(err.message).toMatch(/answered with (application\/zip|image\/png)/);
    }
  });

  it('puts content_type on HTML results too', async () => {
    const page = await h.engine.scrapePage(url('/article'), { engine: 'http', formats: ['markdown'] });
    expect(page.content_type).toBe('text/html');
  });

  it('page-content returns the document with content_type in its item', async () => {
    const c = collectingContext(h.engine);
    await pageContent.run(pageContent.inputSchema.parse({ url: url('/docs/report.pdf'), engine: 'http' }), c.ctx);
    expect(c.items).toHaveLength(1);
    expect(c.items[0]!.data).toMatchObject({ title: 'Quarterly Field Report', content_type: 'application/pdf', markdown: REPORT_MD, metadata: { author: 'Ana Lima', pages: 2 } });
  });
});

// A system Chromium renders a PDF in its viewer; the @sparticuz/chromium build deployed to Lambda
// aborts the navigation (net::ERR_ABORTED) as a download. Either way the engine reads the file
// over http: proved on every binary present.
describe.each(BROWSER_BINARIES)('documents in the browser engine ($name Chromium)', ({ launcher }) => {
  let b: Harness;
  beforeAll(() => {
    b = makeHarness({ fixturePort: site.port, launcher: launcher() });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('fetches the document bytes over http when the browser engine was asked for', async () => {
    const page = await b.engine.scrapePage(url('/docs/report.pdf'), { engine: 'browser', formats: ['markdown', 'metadata'] });
    expect(page.content_type).toBe('application/pdf');
    expect(page.markdown).toBe(REPORT_MD);
    expect(page.metadata?.pages).toBe(2);
    // Two requests, both logged: the browser's (viewer or download) and the http engine's.
    expect(page.engine_used).toBe('http');
    expect(b.logs.filter((l) => l.url === url('/docs/report.pdf') && l.decision === 'fetched').map((l) => l.engine).slice(-2)).toEqual(['browser', 'http']);
  });

  it('reads a PDF served as an attachment download (octet-stream), then an HTML page on the same tab', async () => {
    const page = await b.engine.scrapePage(url('/docs/report-download'), { engine: 'browser', formats: ['markdown'] });
    expect(page.content_type).toBe('application/pdf');
    expect(page.markdown).toBe(REPORT_MD);
    // The tab the download left behind is reused and renders the next page normally.
    const html = await b.engine.scrapePage(url('/article'), { engine: 'browser', formats: ['markdown'] });
    expect(html).toMatchObject({ engine_used: 'browser', content_type: 'text/html' });
    expect(html.markdown).not.toContain('Quarterly Field Report');
  });

  it('loads pages normally after a PDF, an attachment and an HTML page, round after round (a tab left on a PDF viewer is not reused)', async () => {
    // The system binary shows a PDF in a viewer with frames of its own; a tab reused after it
    // waited for those at a later navigation until its timeout (most rounds, before the fix).
    for (let round = 0; round < 3; round++) {
      const pdf = await b.engine.scrapePage(url('/docs/report.pdf'), { engine: 'browser', formats: ['markdown'] });
      expect(pdf.markdown).toBe(REPORT_MD);
      const download = await b.engine.scrapePage(url('/docs/report-download'), { engine: 'browser', formats: ['markdown'] });
      expect(download.markdown).toBe(REPORT_MD);
      const html = await b.engine.scrapePage(url('/article'), { engine: 'browser', formats: ['markdown'] });
      expect(html).toMatchObject({ engine_used: 'browser', content_type: 'text/html' });
    }
  });

  it('refuses another binary type the browser downloads with 422 unsupported_content_type', async () => {
    const err = await failure(b.engine.scrapePage(url('/docs/archive.zip'), { engine: 'browser' }));
    expect(err).toMatchObject({ status: 422, code: 'unsupported_content_type' });
  });
});
