import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';

// A published runbook's input contract is derived from its steps' {input: name} references and
// described by its author in input_schema (API.md "Runbooks"); a field that found nothing is a
// warning in the test's step log, with its column kept (null), not a silently missing column.
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

const steps = [
  { action: 'goto', url: { input: 'start' } },
  { action: 'fill', selector: 'input[name=q]', value: { input: 'query' } },
  { action: 'extract', item_selector: 'li.product', fields: { name: { selector: '.name' }, sku: { selector: '.sku' } } },
];

describe('runbook input contract', () => {
  it('derives the schema from the steps, keeps the author\'s descriptions, and validates runs against it', async () => {
    const c = await svc.call('/v1/runbooks', {
      method: 'POST',
      json: {
        name: 'Search products',
        steps,
        published: true,
        input_schema: { type: 'object', properties: { query: { description: 'What to search for', examples: ['shoes'] }, limit: { type: 'integer', description: 'not used by a step' } } },
      },
    });
    expect(c.status).toBe(201);
    // The stored schema is the author's, unchanged (backwards compatible).
    expect(c.body.input_schema.properties.start).toBeUndefined();
    const listed = (await svc.call('/v1/scrapers')).body.data.find((s: { scraper_id: string }) => s.scraper_id === c.body.id);
    expect(listed.input_schema).toEqual({
      type: 'object',
      properties: {
        start: { type: 'string', format: 'uri', description: 'The URL the runbook opens (absolute http or https)' },
        query: { type: 'string', description: 'What to search for', examples: ['shoes'] },
        limit: { type: 'integer', description: 'not used by a step' },
      },
      required: ['start', 'query'],
      additionalProperties: true,
    });
    const run = (input: unknown) => svc.call('/v1/runs', { method: 'POST', json: { scraper_id: c.body.id, input } });
    const missing = await run({ start: `${site.baseUrl}/products?page=1` });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ path: 'body.input.query', message: 'input query is required by this runbook (What to search for)' }]);
    const notUrl = await run({ start: 'products', query: 'x' });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.details).toEqual([{ path: 'body.input.start', message: 'input start must be an absolute http(s) URL' }]);
    const wrongType = await run({ start: `${site.baseUrl}/`, query: 'x', limit: 'ten' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.details[0]).toMatchObject({ path: 'body.input.limit', message: 'input limit must be integer (got string)' });
    // A URL input is checked against the egress guard up front, as a scraper's url is (loopback port not allowed here).
    const forbidden = await run({ start: 'http://127.0.0.1:1/', query: 'x' });
    expect(forbidden.status).toBe(400);
    expect(forbidden.body.code).toBe('target_forbidden');
    const ok = await run({ start: `${site.baseUrl}/products?page=1`, query: 'x', limit: 3 });
    expect(ok.status).toBe(201);
    await svc.call(`/v1/runs/${ok.body.id}/cancel`, { method: 'POST' });
  });

  it('warns in the step log about a field that found nothing, and keeps its column', async () => {
    const c = await svc.call('/v1/runbooks', { method: 'POST', json: { name: 'Products', steps: [steps[0], steps[2]] } });
    const t = await svc.call(`/v1/runbooks/${c.body.id}/test`, { method: 'POST', json: { input: { start: `${site.baseUrl}/products?page=1` } } });
    expect(t.status).toBe(200);
    expect(t.body.status).toBe('succeeded');
    expect(t.body.items).toHaveLength(4);
    for (const i of t.body.items) expect(i.data).toHaveProperty('sku', null);
    const extract = t.body.log.find((l: { action: string }) => l.action === 'extract');
    expect(extract.warnings).toEqual(['field sku: .sku found nothing in any of the 4 items; its column is empty']);
    expect(t.body.log.find((l: { action: string }) => l.action === 'goto').warnings).toBeUndefined();
  });
});
