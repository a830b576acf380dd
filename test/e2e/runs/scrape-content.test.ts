import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';

let svc: TestService;
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${site.port}` });
});
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
});

const scrape = (json: unknown) => svc.call('/v1/scrape', { method: 'POST', json });

// API.md "Content options" through POST /v1/scrape on the local service (worker, task store, API).
describe('POST /v1/scrape: content options, metadata, documents', () => {
  it('returns content_type and the article metadata fields (null when the page does not say)', async () => {
    const r = await scrape({ url: `${site.baseUrl}/article`, engine: 'http', formats: ['metadata'] });
    expect(r.status).toBe(200);
    expect(r.body.content_type).toBe('text/html');
    expect(r.body.metadata).toMatchObject({ title: 'A Long Article', lang: 'en-GB', language: 'en-GB', type: 'article', author: null, published_at: null, modified_at: null, site_name: null, image: null });
  });

  it('accepts the content options', async () => {
    const r = await scrape({ url: `${site.baseUrl}/article`, engine: 'http', formats: ['markdown'], only_main_content: false, include_tags: ['article'], exclude_tags: ['.share'] });
    expect(r.status).toBe(200);
    expect(typeof r.body.markdown).toBe('string');
  });

  it('answers 400 naming a selector that is not valid', async () => {
    const r = await scrape({ url: `${site.baseUrl}/article`, include_tags: ['main', 'div[['] });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.details).toEqual(expect.arrayContaining([{ path: 'body.include_tags.1', message: '"div[[" is not a valid CSS selector' }]));
  });

  it('reads a PDF: markdown, text, metadata with pages, content_type', async () => {
    const r = await scrape({ url: `${site.baseUrl}/docs/report.pdf`, formats: ['markdown', 'text', 'metadata'] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ content_type: 'application/pdf', engine_used: 'http', metadata: { title: 'Quarterly Field Report', author: 'Ana Lima', pages: 2, site_name: null } });
    expect(r.body.markdown).toMatch(/^# Quarterly Field Report\n\n## Summary\n\nThe survey covered twelve sites/);
    expect(r.body.text.split('\n')[0]).toBe('Quarterly Field Report');
  });

  it.each([
    ['/docs/many-pages.pdf', 'document_too_large', /501 pages/],
    ['/docs/huge.pdf', 'document_too_large', /larger than 20 MB/],
    ['/docs/broken.pdf', 'document_unreadable', /could not be read/],
    ['/docs/archive.zip', 'unsupported_content_type', /application\/zip/],
  ])('answers 422 for %s (%s)', async (path, code, message) => {
    const r = await scrape({ url: `${site.baseUrl}${path}`, engine: 'http' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe(code);
    expect(r.body.message).toMatch(message);
  });
});
