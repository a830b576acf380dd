import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';

// Finding 10 (issue 9): a resource over DynamoDB's 400 KB item limit gets 413 (local mode enforces
// the limit too: dynalite does not), JSON nested 20,000 deep gets 400; both `{code, message}`.
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.destroy();
});

const runbook = (steps: number, valueLength: number) => ({
  name: 'big',
  steps: [
    { action: 'goto', url: 'https://example.com/' },
    ...Array.from({ length: steps }, (_, i) => ({ action: 'fill', selector: `#f${i}`, value: 'x'.repeat(valueLength) })),
  ],
});

describe('oversize and deep input', () => {
  it('a runbook over 400 KB (but under the 1 MB body limit) is refused with 413 and not stored', async () => {
    const before = (await svc.call('/v1/runbooks')).body.data.length;
    const r = await svc.call('/v1/runbooks', { method: 'POST', json: runbook(60, 9_000) });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 'payload_too_large', message: expect.any(String), request_id: expect.any(String) });
    expect((await svc.call('/v1/runbooks')).body.data.length).toBe(before);
  });

  it('a runbook just under the item limit is stored', async () => {
    const r = await svc.call('/v1/runbooks', { method: 'POST', json: runbook(30, 9_000) });
    expect(r.status).toBe(201);
  });

  it.each([
    ['/mcp', (deep: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_started","arguments":${deep}}}`],
    ['/v1/runs', (deep: string) => `{"scraper":"page-content","input":${deep}}`],
  ])('JSON nested 20,000 deep to %s gets 400', async (path, wrap) => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const r = await svc.call(path, { method: 'POST', body: wrap(deep), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/deep/), request_id: expect.any(String) });
    expect((await svc.call('/v1')).status).toBe(200);
  });
});
