import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { createUser } from '../../../functions/core/tenancy/users.js';
import { putResultFile, keyTimestamp } from '../../../functions/core/storage/result-files.js';

// The console API additions of issue 20: names people recognise beside ids (run target URLs,
// query prompts, job labels, user emails in the audit log) and monitoring over a chosen range.

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

describe('console API: names and ranges', () => {
  it('datasets carry the run target URL, the query prompt and the job label', async () => {
    const run = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'page-content', input: { url: `${site.baseUrl}/about`, engine: 'http' } } });
    expect((await svc.call(`/v1/runs/${run.body.id}?wait=20`)).body.status).toBe('succeeded');
    const q = await svc.call('/v1/queries', { method: 'POST', json: { prompt: 'acme shoes reviews', sources: ['reddit'] } });
    const job = await svc.call('/v1/jobs', { method: 'POST', json: { label: 'Morning acme', prompt: 'acme', sources: ['reddit'], schedule: '0 8 * * *' } });
    expect(job.status).toBe(201);
    const now = new Date();
    await putResultFile(svc.deps.table, svc.deps.blobs, svc.tenantId, { key: q.body.query_id, query_id: q.body.query_id, job_id: null, created_at: now.toISOString() }, { items: [] });
    const jobKey = `${q.body.query_id}_${keyTimestamp(now)}.json`;
    await putResultFile(svc.deps.table, svc.deps.blobs, svc.tenantId, { key: jobKey, query_id: q.body.query_id, job_id: job.body.job_id, created_at: now.toISOString() }, { items: [] });

    const runs = await svc.call('/dashboard/api/datasets?kind=runs');
    expect(runs.body.data.find((d: { id: string }) => d.id === run.body.id)).toMatchObject({ label: `${site.baseUrl}/about`, pages: 1 });
    const files = (await svc.call('/dashboard/api/datasets?kind=files')).body.data as Array<{ id: string; label: string | null; job_label: string | null }>;
    expect(files.find((f) => f.id === q.body.query_id)).toMatchObject({ label: 'acme shoes reviews', job_label: null });
    expect(files.find((f) => f.id === jobKey)).toMatchObject({ label: 'acme shoes reviews', job_label: 'Morning acme' });
  });

  it('monitoring takes a range (1h, 24h, 7d, 30d) with a bucket size per range; a bad range is a 400 with its reason', async () => {
    for (const [range, bucket, points] of [['1h', 300, [12, 13]], ['24h', 3600, [24, 25]], ['7d', 21600, [28, 29]], ['30d', 86400, [30, 31]]] as const) {
      const mon = await svc.call(`/dashboard/api/monitoring?range=${range}`);
      expect(mon.status).toBe(200);
      expect(mon.body.window.range).toBe(range);
      expect(mon.body.activity.bucket_seconds).toBe(bucket);
      expect(points).toContain(mon.body.activity.buckets.length);
    }
    expect((await svc.call('/dashboard/api/monitoring')).body.window.range).toBe('24h');
    const bad = await svc.call('/dashboard/api/monitoring?range=2y');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_request' });
    expect(bad.body.details[0].path).toBe('query.range');
  });

  it('the audit log records a console user\'s email with their calls', async () => {
    await createUser(svc.deps.table, svc.tenantId, 'auditor@example.com', 'correct horse battery', new Date());
    const login = await svc.call('/dashboard/api/session', { method: 'POST', key: null, json: { email: 'auditor@example.com', password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    expect((await svc.call('/dashboard/api/settings/target-policy', { key: null, headers: { cookie } })).status).toBe(200);
    await svc.deps.audit.flush();
    const audit = await svc.call('/dashboard/api/audit?action=settings.target-policy.get');
    const byUser = (audit.body.data as Array<{ principal: { type: string; email?: string } }>).find((r) => r.principal.type === 'user');
    expect(byUser?.principal.email).toBe('auditor@example.com');
    // Calls made with a key carry no email.
    const byKey = (await svc.call('/dashboard/api/audit?limit=200')).body.data.find((r: { principal: { type: string } }) => r.principal.type === 'key');
    expect(byKey.principal.email).toBeUndefined();
  });
});
