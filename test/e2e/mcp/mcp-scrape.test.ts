import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, type ToolResult } from '../../support/mcp-client.js';
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
const textOf = (r: ToolResult) => (r.content as Array<{ text: string }>)[0]!.text;

describe('MCP scrape tool', () => {
  it('is listed with the body of POST /v1/scrape as its input schema', async () => {
    const c = await connect(svc.key);
    const tool = (await c.listTools()).tools.find((t) => t.name === 'scrape');
    expect(tool).toBeDefined();
    expect(Object.keys(tool!.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['url', 'formats', 'engine', 'only_main_content', 'include_tags', 'exclude_tags', 'extract', 'wait_for', 'timeout_ms']));
    expect(tool!.inputSchema.required).toEqual(['url']);
    await c.close();
  });

  it('returns the markdown as text and the rest as structured content, like the REST call', async () => {
    const c = await connect(svc.key);
    const r = await c.callTool({ name: 'scrape', arguments: { url: `${site.baseUrl}/article`, engine: 'http', formats: ['markdown', 'links', 'metadata'] } });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toMatch(/^# The article headline/);
    expect(r.structuredContent).toMatchObject({ url: `${site.baseUrl}/article`, status_code: 200, engine_used: 'http', content_type: 'text/html', metadata: { lang: 'en-GB', language: 'en-GB' } });
    expect(r.structuredContent).not.toHaveProperty('markdown');
    expect((r.structuredContent as { links: string[] }).links).toContain(`${site.baseUrl}/about`);
    // The same page through REST: same fields.
    const rest = await svc.call('/v1/scrape', { method: 'POST', json: { url: `${site.baseUrl}/article`, engine: 'http', formats: ['markdown', 'links', 'metadata'] } });
    expect(rest.status).toBe(200);
    expect(rest.body.markdown).toBe(textOf(r));
    expect(Object.keys(rest.body).filter((k) => k !== 'markdown').sort()).toEqual(Object.keys(r.structuredContent!).sort());
    await c.close();
  });

  it('reads a PDF', async () => {
    const c = await connect(svc.key);
    const r = await c.callTool({ name: 'scrape', arguments: { url: `${site.baseUrl}/docs/report.pdf`, formats: ['markdown', 'metadata'] } });
    expect(textOf(r)).toMatch(/^# Quarterly Field Report\n\n## Summary/);
    expect(r.structuredContent).toMatchObject({ content_type: 'application/pdf', metadata: { title: 'Quarterly Field Report', author: 'Ana Lima', pages: 2 } });
    await c.close();
  });

  it('answers errors with the API code: bad selector, forbidden target, robots', async () => {
    const c = await connect(svc.key);
    const bad = await c.callTool({ name: 'scrape', arguments: { url: `${site.baseUrl}/article`, exclude_tags: ['div[['] } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('is not a valid CSS selector');
    const forbidden = await c.callTool({ name: 'scrape', arguments: { url: 'http://192.168.1.1/' } });
    expect(JSON.parse(textOf(forbidden))).toMatchObject({ code: 'target_forbidden' });
    const robots = await c.callTool({ name: 'scrape', arguments: { url: `${site.baseUrl}/private/x` } });
    expect(JSON.parse(textOf(robots))).toMatchObject({ code: 'robots_disallowed' });
    const tooLong = await c.callTool({ name: 'scrape', arguments: { url: `${site.baseUrl}/docs/many-pages.pdf` } });
    expect(JSON.parse(textOf(tooLong))).toMatchObject({ code: 'document_too_large' });
    await c.close();
  });

  it('needs scrape:write and is audited with surface mcp', async () => {
    const k = (await admin(['keys', 'create', '--tenant', svc.tenantId, '--scopes', 'runs:write'], svc.deps.table)) as { api_key: string };
    const c = await connect(k.api_key);
    const r = await c.callTool({ name: 'scrape', arguments: { url: `${site.baseUrl}/about` } });
    expect(r.isError).toBe(true);
    expect(JSON.parse(textOf(r))).toMatchObject({ code: 'forbidden' });
    await c.close();
    const ok = (await admin(['keys', 'create', '--tenant', svc.tenantId, '--scopes', 'scrape:write'], svc.deps.table)) as { api_key: string };
    const c2 = await connect(ok.api_key);
    expect((await c2.callTool({ name: 'scrape', arguments: { url: `${site.baseUrl}/about`, engine: 'http' } })).isError).toBeFalsy();
    await c2.close();
    await svc.deps.audit.flush();
    const audit = await svc.call('/dashboard/api/audit?action=mcp.post&limit=200');
    const records = audit.body.data.filter((a: { surface: string; resource: string }) => a.surface === 'mcp' && a.resource === 'tool:scrape');
    expect(records.length).toBeGreaterThanOrEqual(2);
  });
});
