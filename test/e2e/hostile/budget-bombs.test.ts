import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { run as admin } from '../../../functions/cli/admin.js';
import { clearAuthCache } from '../../../functions/http/pipeline/authenticate.js';
import { keys, monthOf } from '../../../functions/core/table-keys.js';
import { startFakeOpenAi } from '../../fixtures/fake-models/openai-chat.js';
import { PRODUCT_HTML } from '../../fixtures/fake-models/extraction-pages.js';
import { listen, type FakeServer } from '../../fixtures/fake-models/scripted.js';
import { pdfBomb } from '../../fixtures/pdf/pdf-bomb.js';

// The hostile-input suite's budget bombs (issue 27): generated schema, selector and PDF bombs sent
// to the local service by one tenant while another tenant's requests must keep being answered.
// Each bomb must get a 4xx/422 naming its limit (never a 5xx), and the service must stay up.
// Concurrent model calls must never take a tenant over its token cap.

/** `$defs.a` with n properties, and n properties, each a `$ref` to it: N² checks when inlined. */
const schemaBomb = (n: number) => {
  const props: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) props[`p${i}`] = { $ref: '#/$defs/a' };
  return { type: 'object', $defs: { a: { type: 'object', properties: props } }, properties: props };
};
/** `*:has(*:has(…(b)))` nested `depth` deep. */
const hasBomb = (depth: number) => `${'*:has('.repeat(depth)}b${')'.repeat(depth)}`;

let svc: TestService;
let site: { url: string; close(): Promise<void> };
let fake: FakeServer;
let other: string;
const PDF = pdfBomb(80);

beforeAll(async () => {
  site = await listen((req, res) => {
    if (req.url === '/bomb.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(PDF);
      return;
    }
    // 150 nested divs: what made one nested :has() run for seconds. 40,000: what the HTML5 tree
    // builder alone would take most of a minute over (its cost grows with the square of the depth).
    const html = req.url === '/nested' ? `<html><body>${'<div>'.repeat(150)}x${'</div>'.repeat(150)}</body></html>`
      : req.url === '/deep' ? `<html><body>${'<div>'.repeat(40_000)}x${'</div>'.repeat(40_000)}</body></html>` : PRODUCT_HTML;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  fake = await startFakeOpenAi(() => ({ json: { name: 'Blue kettle', price: 24.5 }, usage: { input: 400, output: 20 } }), { apiKey: 'sk-bombs' });
  svc = await startTestService({
    GLEANER_EGRESS_ALLOW: site.url.replace('http://', ''),
    GLEANER_LLM_BASE_URL: `${fake.url}/v1`,
    GLEANER_LLM_MODEL: 'llama3.1',
    GLEANER_LLM_API_KEY: 'sk-bombs',
    GLEANER_MODEL_INPUT_TOKENS: '1500',
    GLEANER_MODEL_OUTPUT_TOKENS: '100',
  });
  other = ((await admin(['tenants', 'create', '--name', 'bystander'], svc.deps.table)) as { api_key: string }).api_key;
  clearAuthCache();
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
  await fake?.close();
  await site?.close();
});

const scrape = (json: unknown, key?: string) => svc.call('/v1/scrape', { method: 'POST', json, key });
/** The bystander's own request: answered, whatever the attacker sent. */
const bystanderOk = async () => expect((await svc.call('/v1/runs', { key: other })).status).toBe(200);

describe('schema bombs', () => {
  it('N properties each $ref-ing N properties: 422 schema_too_complex, and the service keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 120, max: 400 }), async (n) => {
        const r = await scrape({ url: `${site.url}/product`, formats: ['json'], json_options: { schema: schemaBomb(n) } });
        expect(r.status).toBe(422);
        expect(r.body).toMatchObject({ code: 'schema_too_complex', message: expect.stringContaining('$ref') });
        await bystanderOk();
      }),
      { numRuns: 4 },
    );
  });

  it('allOf chains that double at each step, and $ref cycles: 422 schema_too_complex', async () => {
    const defs: Record<string, unknown> = { d30: { type: 'string' } };
    for (let i = 0; i < 30; i++) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    for (const schema of [
      { type: 'object', $defs: defs, properties: { x: { $ref: '#/$defs/d0' } } },
      { type: 'object', $defs: { x: { $ref: '#/$defs/y' }, y: { $ref: '#/$defs/x' } }, properties: { a: { $ref: '#/$defs/x' } } },
    ]) {
      const r = await scrape({ url: `${site.url}/product`, formats: ['json'], json_options: { schema } });
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('schema_too_complex');
    }
    await bystanderOk();
  });
});

describe('selector bombs', () => {
  it('nested :has() in include_tags, exclude_tags, extract.fields and wait_for: 422 selector_too_complex naming the field', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 6 }), fc.constantFrom('include_tags', 'exclude_tags', 'extract', 'wait_for'), async (depth, where) => {
        const sel = hasBomb(depth);
        const body: Record<string, unknown> = { url: `${site.url}/nested` };
        if (where === 'extract') body.extract = { fields: { x: { selector: sel } } };
        else if (where === 'wait_for') body.wait_for = sel;
        else body[where] = [sel];
        const r = await scrape(body);
        expect(r.status).toBe(422);
        expect(r.body.code).toBe('selector_too_complex');
        expect(r.body.message).toContain(where === 'extract' ? 'body.extract.fields.x.selector' : `body.${where}`);
        await bystanderOk();
      }),
      { numRuns: 8 },
    );
  });

  it('a single :has() still works on an honest page', async () => {
    const r = await scrape({ url: `${site.url}/product`, formats: ['markdown'], include_tags: ['p:has(+ p)'], extract: { fields: { h: { selector: 'body:has(h1) h1' } } } });
    expect(r.status).toBe(200);
    expect(r.body.extracted.h).toBe('Blue kettle');
  });
});

describe('document bombs', () => {
  it('a page nested 40,000 elements deep (440 KB): 422 document_too_complex naming the limit, and the service keeps serving', async () => {
    const r = await scrape({ url: `${site.url}/deep`, formats: ['markdown'], timeout_ms: 3000 });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'document_too_complex', message: expect.stringContaining('2500 deep') });
    await bystanderOk();
  });

  it('a PDF holding an 80 MB Flate stream: 422 document_too_complex, and the service keeps serving', async () => {
    expect(PDF.length).toBeLessThan(200 * 1024);
    const r = await scrape({ url: `${site.url}/bomb.pdf`, formats: ['markdown'], timeout_ms: 3000 });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'document_too_complex', message: expect.stringContaining('MB') });
    await bystanderOk();
  });
});

describe('model tokens under concurrency', () => {
  it('ten concurrent scrapes never take a tenant over its cap (reservations, not a check then a call)', async () => {
    const t = (await admin(['tenants', 'create', '--name', 'tokens'], svc.deps.table)) as { tenant_id: string; api_key: string };
    await admin(['tenants', 'set-limits', t.tenant_id, '--monthly-model-tokens', '2000'], svc.deps.table);
    clearAuthCache();
    await svc.deps.table.update(keys.usage(t.tenant_id, monthOf(new Date())), { add: { model_tokens: 1100 } });
    const body = { url: `${site.url}/product`, formats: ['json'], json_options: { schema: { type: 'object', properties: { name: { type: 'string' } } } } };
    const answers = await Promise.all(Array.from({ length: 10 }, () => scrape(body, t.api_key)));
    for (const a of answers) expect(a.status).toBeLessThan(500);
    const usage = (await svc.call('/v1/tenant', { key: t.api_key })).body.usage.model_tokens;
    expect(usage).toBeLessThanOrEqual(2000);
    // Some calls did fit (each costs 420), and every refused item says why.
    expect(usage).toBeGreaterThan(1100);
    for (const a of answers) if (a.status === 200 && !a.body.json) expect(a.body.json_error.code).toBe('quota_exceeded');
  });
});
