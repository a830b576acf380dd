import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, toolJson as json } from '../../support/mcp-client.js';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { run as admin } from '../../../functions/cli/admin.js';

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

const connect = (key: string) => mcpClient(svc.url, key);

describe('MCP agent endpoint', () => {
  it('lists tools and answers get_started', async () => {
    const c = await connect(svc.key);
    const tools = (await c.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['get_started', 'list_scrapers', 'start_run', 'get_run', 'get_run_results', 'submit_query', 'get_query', 'list_storage', 'get_storage_file']));
    const r = await c.callTool({ name: 'get_started', arguments: {} });
    expect((r.content as Array<{ text: string }>)[0]!.text).toMatch(/Rules: .*authorized/);
    await c.close();
  });

  it('runs a scraper end to end through tools', async () => {
    const c = await connect(svc.key);
    const run = json(await c.callTool({ name: 'start_run', arguments: { scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` } } }));
    expect(run.id).toMatch(/^run_/);
    const done = json(await c.callTool({ name: 'get_run', arguments: { run_id: run.id, wait_seconds: 20 } }));
    expect(done.status).toBe('succeeded');
    const items = json(await c.callTool({ name: 'get_run_results', arguments: { run_id: run.id } }));
    expect(items.data).toHaveLength(1);
    await c.close();
  });

  it('scope-checks every tool and audits the call with surface mcp', async () => {
    const k = (await admin(['keys', 'create', '--tenant', svc.tenantId, '--scopes', 'queries:read'], svc.deps.table)) as { api_key: string };
    const c = await connect(k.api_key);
    const r = await c.callTool({ name: 'start_run', arguments: { scraper_id: 'page-content', input: { url: `${site.baseUrl}/` } } });
    expect(r.isError).toBe(true);
    expect(json(r)).toMatchObject({ code: 'forbidden' });
    await c.close();
    await svc.deps.audit.flush();
    const audit = await svc.call('/dashboard/api/audit?action=mcp.post&limit=200');
    expect(audit.body.data.some((a: { surface: string; resource: string }) => a.surface === 'mcp' && a.resource === 'tool:start_run')).toBe(true);
  });

  it('refuses calls without a key', async () => {
    const r = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(r.status).toBe(401);
  });
});
