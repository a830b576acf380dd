import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient } from '../../support/mcp-client.js';
import { startTestService, type TestService } from '../../support/local-service.js';
import { run as admin } from '../../../functions/cli/admin.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.destroy();
});

const keyWith = async (scopes: string) => ((await admin(['keys', 'create', '--tenant', svc.tenantId, '--scopes', scopes], svc.deps.table)) as { api_key: string }).api_key;

describe('HTTP details', () => {
  it('401 names the Bearer scheme in WWW-Authenticate', async () => {
    for (const init of [{ key: null }, { key: 'glr_nope000000000000000000000000000' }]) {
      const r = await svc.call('/v1/runs', init);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer realm="gleaner"/);
      expect(r.headers.get('x-request-id')).toMatch(/^req_/);
    }
    const login = await svc.call('/dashboard/api/session', { method: 'POST', key: null, json: { email: 'nobody@example.com', password: 'x' } });
    expect(login.status).toBe(401);
    expect(login.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('403 carries the RateLimit headers like every other keyed answer', async () => {
    const k = await keyWith('queries:read');
    for (const [path, init] of [['/v1/runs', {}], ['/v1/runs', { method: 'POST', json: { scraper_id: 'page-content', input: {} } }]] as const) {
      const r = await svc.call(path, { ...init, key: k });
      expect(r.status).toBe(403);
      for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(r.headers.get(h), `${h} on ${path}`).toMatch(/^\d+$/);
    }
  });

  it('405 with Allow for an unsupported method on an existing path, 404 for an unknown path', async () => {
    const cases: [string, string, string][] = [
      ['PUT', '/v1/runs', 'GET, HEAD, POST'],
      ['DELETE', '/v1/scrapers', 'GET, HEAD'],
      ['GET', '/mcp', 'POST'],
      ['DELETE', '/mcp', 'POST'],
      ['PATCH', '/v1/runs/run_00000000000000000000000000', 'GET, HEAD'],
      ['POST', '/', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const r = await svc.call(path, { method });
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.headers.get('allow'), `${method} ${path}`).toBe(allow);
      expect(r.body).toMatchObject({ code: 'method_not_allowed', request_id: expect.stringMatching(/^req_/) });
    }
    const nf = await svc.call('/v1/nothing-here', { method: 'PUT' });
    expect(nf.status).toBe(404);
    expect(nf.body.code).toBe('not_found');
  });

  it('MCP tool input schemas are strict: an unknown argument is refused', async () => {
    const c = await mcpClient(svc.url, svc.key, 'contract-test');
    const tools = (await c.listTools()).tools;
    for (const t of tools) expect(t.inputSchema.additionalProperties, t.name).toBe(false);
    const refused = await c.callTool({ name: 'get_run', arguments: { run_id: 'run_00000000000000000000000000', bogus: true } }).then(
      (r) => ({ isError: r.isError, text: JSON.stringify(r.content) }),
      (e: Error) => ({ isError: true, text: e.message }),
    );
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/bogus|unrecognized/i);
    await c.close();
  });

  it('serves the reference page and its renderer from this origin under a CSP', async () => {
    const page = await svc.call('/docs', { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(page.text).toContain('src="/docs?asset=api-reference.js"');
    expect(page.text).not.toMatch(/https?:\/\//);
    const js = await svc.call('/docs?asset=api-reference.js', { key: null });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    const again = await svc.call('/docs?asset=api-reference.js', { key: null, headers: { 'if-none-match': js.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
});
