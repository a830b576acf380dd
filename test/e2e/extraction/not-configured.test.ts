import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startExtractionPages } from '../../fixtures/fake-models/extraction-pages.js';

// Without a model provider, asking for the json format is 422 model_not_configured at submit,
// with a message saying how to configure one; everything else works as before. (Its own file:
// the local service's deps are per process.)

const schema = { type: 'object', properties: { name: { type: 'string' } } };
let svc: TestService;
let pages: Awaited<ReturnType<typeof startExtractionPages>>;

beforeAll(async () => {
  pages = await startExtractionPages();
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: pages.hostPort });
});
afterAll(async () => {
  await svc?.destroy();
  await pages?.close();
});

describe('json format without a model provider', () => {
  it('is 422 model_not_configured for scrapes and runs, saying how to configure one', async () => {
    const r = await svc.call('/v1/scrape', { method: 'POST', json: { url: `${pages.baseUrl}/product`, formats: ['json'], json_options: { schema } } });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('model_not_configured');
    expect(r.body.message).toContain('GLEANER_LLM_BASE_URL');
    expect(r.body.message).toContain('-c extractionModelId=');
    for (const input of [
      { url: `${pages.baseUrl}/product`, formats: ['json'], json_options: { schema } },
    ]) {
      const run = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'page-content', input } });
      expect(run.status).toBe(422);
      expect(run.body.code).toBe('model_not_configured');
    }
    const crawl = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'site-crawl', input: { start_url: `${pages.baseUrl}/product`, formats: ['json'], json_options: { schema } } } });
    expect(crawl.status).toBe(422);
  });

  it('checks the provider before compiling the schema (the cheap check first), and scrapes without json as before', async () => {
    const bad = await svc.call('/v1/scrape', { method: 'POST', json: { url: `${pages.baseUrl}/product`, formats: ['json'], json_options: { schema: { type: 'object', properties: { a: { type: 7 } } } } } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('model_not_configured');
    const ok = await svc.call('/v1/scrape', { method: 'POST', json: { url: `${pages.baseUrl}/product`, formats: ['markdown'] } });
    expect(ok.status).toBe(200);
    expect(ok.body.markdown).toContain('Blue kettle');
    expect(ok.body.json).toBeUndefined();
  });
});
