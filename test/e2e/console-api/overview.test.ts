import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { putResultFile } from '../../../functions/core/storage/result-files.js';

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

describe('console API groups', () => {
  it('monitoring, datasets, social and studio reflect what the tenant did', async () => {
    const run = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` } } });
    expect((await svc.call(`/v1/runs/${run.body.id}?wait=20`)).body.status).toBe('succeeded');
    const failing = await svc.call('/v1/queries', { method: 'POST', json: { prompt: 'acme', sources: ['reddit'] } });
    await svc.queue.idle();
    await putResultFile(svc.deps.table, svc.deps.blobs, svc.tenantId, { key: 'qry_01m80000000000000000000000', query_id: 'qry_01m80000000000000000000000', job_id: null, created_at: new Date().toISOString() }, { items: [] });

    const mon = await svc.call('/dashboard/api/monitoring');
    expect(mon.status).toBe(200);
    expect(mon.body.runs.by_status.succeeded).toBeGreaterThanOrEqual(1);
    expect(mon.body.queries.by_status.failed).toBeGreaterThanOrEqual(1);
    expect(mon.body.recent_failures.some((f: { id: string }) => f.id === failing.body.query_id)).toBe(true);
    expect(mon.body.usage.pages).toBeGreaterThanOrEqual(1);

    const ds = await svc.call('/dashboard/api/datasets');
    expect(ds.body.data[0]).toMatchObject({ id: run.body.id, kind: 'run', items: 1, url: `/v1/runs/${run.body.id}/results` });
    const files = await svc.call('/dashboard/api/datasets?kind=files');
    expect(files.body.data.map((f: { id: string }) => f.id)).toContain('qry_01m80000000000000000000000');
    expect((await svc.call('/dashboard/api/datasets?kind=nope')).status).toBe(400);

    const soc = await svc.call('/dashboard/api/social');
    expect(soc.body.sources.find((s: { source: string }) => s.source === 'reddit')).toMatchObject({ configured: false, queries_7d: 1 });

    const st = await svc.call('/dashboard/api/studio');
    const actions = st.body.steps.map((s: { properties?: { action?: { const?: string } } }) => s.properties?.action?.const);
    expect(actions).toEqual(expect.arrayContaining(['goto', 'click', 'fill', 'wait_for', 'scroll', 'extract', 'paginate', 'screenshot']));
  });

  it('needs the admin scope', async () => {
    const { run } = await import('../../../functions/cli/admin.js');
    const k = (await run(['keys', 'create', '--tenant', svc.tenantId, '--scopes', 'runs:read'], svc.deps.table)) as { api_key: string };
    expect((await svc.call('/dashboard/api/monitoring', { key: k.api_key })).status).toBe(403);
  });
});

describe('tenant secrets', () => {
  it('stores a secret without ever returning it, and deletes it', async () => {
    expect((await svc.call('/dashboard/api/secrets/site_password', { method: 'PUT', json: { value: 'hunter2-very-secret', domains: ['shop.example.com'] } })).status).toBe(200);
    const list = await svc.call('/dashboard/api/secrets');
    expect(list.body.data.map((s: { name: string }) => s.name)).toContain('site_password');
    expect(list.text).not.toContain('hunter2');
    expect((await svc.call('/dashboard/api/secrets/site_password', { method: 'DELETE' })).status).toBe(204);
    expect((await svc.call('/dashboard/api/secrets/site_password', { method: 'DELETE' })).status).toBe(404);
  });
});
