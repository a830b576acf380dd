import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../../../functions/core/tenancy/tenants.js';
import { createApiKey } from '../../../functions/core/tenancy/api-keys.js';
import { putResultFile } from '../../../functions/core/storage/result-files.js';
import { S3Blobs } from '../../../functions/adapters/aws/s3-blobs.js';
import { LambdaIamHarness, type Invocation } from '../../support/lambda-iam-harness.js';
import { routes, workers } from '../../../functions/routes.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { startFakeX, type FakeX } from '../../fixtures/fake-sources/x.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.js';
import { FAKE_KEYS, startFakeSearch, type FakeSearch } from '../../fixtures/fake-search/fake-search.js';

// IAM proven from behaviour (issue 8): every handler and worker below runs bundled, loaded afresh
// for each call (a cold start), in aws mode, with its synthesized environment; every AWS SDK command it sends is
// recorded and must be allowed by its role in the synthesized template (iam-simulate). A grant
// missing from lib/runtime-wiring.ts or a row's `grants` fails here.
let h: LambdaIamHarness;
let site: FixtureSite;
let x: FakeX;
let hooks: WebhookReceiver;
let brave: FakeSearch;
let key: string;
let tenantId: string;

beforeAll(async () => {
  [site, x, hooks, brave] = await Promise.all([startFixtureSite(), startFakeX({ count: 5 }), startWebhookReceiver(), startFakeSearch('brave')]);
  h = await LambdaIamHarness.start({
    GLEANER_EGRESS_ALLOW: [new URL(site.baseUrl).host, new URL(x.baseUrl).host, hooks.hostPort, new URL(brave.baseUrl).host].join(','),
    GLEANER_SOURCE_X_BASE_URL: x.baseUrl,
    GLEANER_SEARCH_BRAVE_BASE_URL: brave.baseUrl,
    // As with `-c bedrockModelId=`: the queries planner asks Bedrock (the emulator answers no plan, so it falls back).
    GLEANER_BEDROCK_MODEL_ID: 'anthropic.claude-3-haiku-20240307-v1:0',
  });
  const t = await createTenant(h.table, 'iam', new Date());
  tenantId = t.tenant_id;
  key = (await createApiKey(h.table, { tenantId, scopes: ['*'] }, new Date())).api_key;
}, 180_000);

afterAll(async () => {
  const idle = h?.iam.unexercised() ?? {};
  // Reported, not failed: grants that no call in these tests used (candidates for removal, or
  // paths these tests do not reach).
  const lines = Object.entries(idle).map(([fn, g]) => `  ${fn}:\n${g.map((x) => `    - ${x}`).join('\n')}`);
  if (lines.length) console.log(`Grants no test exercised:\n${lines.join('\n')}`);
  await h?.close();
  await Promise.all([site?.close(), x?.close(), hooks?.close(), brave?.close()]);
});

/** The call's response, after asserting that every SDK command it sent was granted. */
function granted<R>(inv: Invocation<R>): R {
  expect(inv.denials.map((d) => `${d.fn}: ${d.request.call} needs ${d.request.action} on ${d.request.resource} ${JSON.stringify(d.request.context)} (${d.result})`)).toEqual([]);
  const status = (inv.result as { statusCode?: number } | null)?.statusCode;
  const failed = (inv.result as { batchItemFailures?: unknown[] } | null)?.batchItemFailures?.length;
  if ((status !== undefined && status >= 500) || failed) console.log(inv.logs);
  return inv.result;
}
const json = (r: { body: string }) => JSON.parse(r.body) as Record<string, any>;

describe('storage', () => {
  it('get, list and delete a stored result with their real grants', async () => {
    const blobs = new S3Blobs(h.stores.s3, { results: h.names.results, raw: h.names.raw });
    await putResultFile(h.table, blobs, tenantId, { key: 'qry_iam_1', query_id: 'qry_iam_1', job_id: null, created_at: new Date().toISOString() }, { ok: 1 });
    const got = granted(await h.route('storage.get', { path: '/v1/storage/qry_iam_1', key }));
    expect(got.statusCode).toBe(200);
    expect(json(got)).toEqual({ ok: 1 });
    const listed = granted(await h.route('storage.list', { path: '/v1/storage', key }));
    expect(json(listed).data.map((f: { key: string }) => f.key)).toContain('qry_iam_1');
    const del = await h.route('storage.delete', { path: '/v1/storage/qry_iam_1', key });
    expect(granted(del).statusCode).toBe(204);
    expect(del.calls.map((c) => c.command)).toContain('DeleteObjectCommand');
    expect(await blobs.get('results', `tenants/${tenantId}/results/qry_iam_1`)).toBeUndefined();
    expect(granted(await h.route('storage.get', { path: '/v1/storage/qry_iam_1', key })).statusCode).toBe(404);
  });
});

describe('runs', () => {
  it('create -> runs worker -> get, results, log', async () => {
    const created = granted(await h.route('runs.create', { path: '/v1/runs', key, body: { scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` } } }));
    expect(created.statusCode).toBe(201);
    const runId = json(created).id as string;
    const sent = h.take('runs');
    expect(sent).toHaveLength(1);
    const w = granted(await h.worker('runs', sent));
    expect(w.batchItemFailures).toEqual([]);
    const got = granted(await h.route('runs.get', { path: `/v1/runs/${runId}`, key }));
    expect(json(got).status).toBe('succeeded');
    const results = granted(await h.route('runs.results', { path: `/v1/runs/${runId}/results`, key }));
    expect(json(results).data.length).toBeGreaterThan(0);
    // The export streams (REST API payload, awslambda.streamifyResponse) with the same grants.
    const nd = granted(await h.route('runs.results', { path: `/v1/runs/${runId}/results`, key, query: 'format=ndjson' }));
    expect(nd).toMatchObject({ statusCode: 200, streamed: true, headers: { 'content-type': 'application/x-ndjson', 'content-disposition': `attachment; filename="${runId}.ndjson"` } });
    expect(nd.body.trimEnd().split('\n').map((l) => JSON.parse(l).url)).toEqual(json(results).data.map((i: { url: string }) => i.url));
    const csv = granted(await h.route('runs.results', { path: `/v1/runs/${runId}/results`, key, query: 'format=csv' }));
    expect(csv.body.split('\r\n')[0]).toMatch(/^url,fetched_at,status_code,/);
    // Before the first byte, errors are still {code, message} JSON with their status.
    const missing = granted(await h.route('runs.results', { path: `/v1/runs/run_${'0'.repeat(26)}/results`, key, query: 'format=csv' }));
    expect(missing).toMatchObject({ statusCode: 404, streamed: true });
    expect(json(missing)).toMatchObject({ code: 'not_found' });
    const log = granted(await h.route('runs.log', { path: `/v1/runs/${runId}/log`, key }));
    expect(log.statusCode).toBe(200);
    h.take('deliveries');
  });
});

describe('search', () => {
  it('search-providers.put (kms) -> .test (kms, provider) -> search.run -> runs worker (kms, engine) -> the answer; list and delete', async () => {
    expect(granted(await h.route('search-providers.put', { path: '/dashboard/api/search-providers/brave', key, body: { api_key: FAKE_KEYS.brave } })).statusCode).toBe(200);
    const tested = granted(await h.route('search-providers.test', { path: '/dashboard/api/search-providers/brave/test', key }));
    expect(json(tested)).toMatchObject({ provider: 'brave', ok: true });
    brave.results = [{ url: `${site.baseUrl}/about`, title: 'About', snippet: 'a' }];
    // The route waits for the runs worker (27 s at most): bundle the worker first (an empty batch),
    // then run it on the route's message while the route waits.
    expect(granted(await h.worker('runs', [])).batchItemFailures).toEqual([]);
    const answer = h.route('search.run', { path: '/v1/search', key, body: { query: 'about', scrape: { formats: ['markdown'], engine: 'http' } } });
    let sent: ReturnType<typeof h.take> = [];
    for (let i = 0; i < 200 && !sent.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      sent = h.take('runs');
    }
    expect(sent).toHaveLength(1);
    expect(granted(await h.worker('runs', sent)).batchItemFailures).toEqual([]);
    const r = granted(await answer);
    expect(r.statusCode).toBe(200);
    expect(json(r)).toMatchObject({ provider: 'brave', data: [{ rank: 1, policy: { decision: 'allowed' }, scrape: { status_code: 200 } }], usage: { searches: 1, pages: 1 } });
    expect(granted(await h.route('search-providers.list', { path: '/dashboard/api/search-providers', key })).statusCode).toBe(200);
    expect(granted(await h.route('search-providers.delete', { path: '/dashboard/api/search-providers/brave', key })).statusCode).toBe(204);
  }, 300_000); // bundles five handlers and the runs worker when it runs first
});

describe('queries, sources and secrets', () => {
  it('sources.put (kms) -> queries.create -> queries worker (kms, bedrock) -> queries.get', async () => {
    expect(granted(await h.route('sources.put', { path: '/dashboard/api/sources/x', key, body: { bearer_token: 'x-test-token' } })).statusCode).toBe(200);
    const created = granted(await h.route('queries.create', { path: '/v1/queries', key, body: { prompt: 'acme running shoes', sources: ['x'], limit: 5 } }));
    expect(created.statusCode).toBe(202);
    const queryId = json(created).query_id as string;
    const sent = h.take('queries');
    expect(sent).toHaveLength(1);
    const w = await h.worker('queries', sent);
    expect(granted(w).batchItemFailures).toEqual([]);
    expect(w.calls.some((c) => c.service === 'Bedrock Runtime')).toBe(true);
    const got = granted(await h.route('queries.get', { path: `/v1/queries/${queryId}`, key }));
    expect(json(got).status).toBe('completed');
  });

  it('secrets.put encrypts with the secrets key', async () => {
    const r = await h.route('secrets.put', { path: '/dashboard/api/secrets/site_password', key, body: { value: 's3cret', domains: ['login.example.com'] } });
    expect(granted(r).statusCode).toBeLessThan(300);
    expect(r.calls.map((c) => c.command)).toContain('EncryptCommand');
  });
});

describe('webhooks and deliveries', () => {
  it('webhooks.create (kms) -> run.completed -> deliveries worker posts it', async () => {
    const w = granted(await h.route('webhooks.create', { path: '/v1/webhooks', key, body: { url: `${hooks.baseUrl}/registered`, events: ['run.completed'] } }));
    expect(w.statusCode).toBe(201);
    const created = granted(await h.route('runs.create', { path: '/v1/runs', key, body: { scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` } } }));
    expect(created.statusCode).toBe(201);
    expect(granted(await h.worker('runs', h.take('runs'))).batchItemFailures).toEqual([]);
    // The event fans out to one delivery per subscribed webhook, each a message of its own.
    let deliveries = h.take('deliveries');
    expect(deliveries.length).toBeGreaterThan(0);
    for (let hop = 0; hop < 3 && deliveries.length; hop++) {
      expect(granted(await h.worker('deliveries', deliveries)).batchItemFailures).toEqual([]);
      deliveries = h.take('deliveries');
    }
    expect(hooks.at('/registered').length).toBeGreaterThan(0);
  });
});

describe('jobs', () => {
  it('jobs.create (scheduler + PassRole) -> the schedule fires -> jobs worker starts the run', async () => {
    h.take('queries');
    const r = granted(await h.route('jobs.create', { path: '/v1/jobs', key, body: { label: 'Acme', prompt: 'acme running shoes', sources: ['x'], schedule: '0 0 1 1 *', limit: 5 } }));
    expect(r.statusCode).toBe(201);
    expect(h.emulator.schedules.size).toBe(1);
    const [schedule] = [...h.emulator.schedules.values()];
    const target = schedule!.input.Target as { Input: string };
    const fire = JSON.parse(target.Input.replace('<aws.scheduler.scheduled-time>', new Date().toISOString())) as unknown;
    expect(granted(await h.worker('jobs', [fire])).batchItemFailures).toEqual([]);
    expect(h.take('queries')).toHaveLength(1);
  });

  it('a run job: jobs.create schedules it in its time zone -> the fire -> the jobs worker starts a run (runs queue) with job_id', async () => {
    h.take('runs');
    const r = granted(await h.route('jobs.create', { path: '/v1/jobs', key, body: { label: 'About', scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` }, schedule: '30 2 * * *', timezone: 'Europe/Berlin' } }));
    expect(r.statusCode).toBe(201);
    const jobId = JSON.parse(r.body).job_id as string;
    const schedule = [...h.emulator.schedules.values()].find((s) => String((s.input.Target as { Input: string }).Input).includes(jobId))!;
    expect(schedule.input).toMatchObject({ ScheduleExpression: 'cron(30 2 * * ? *)', ScheduleExpressionTimezone: 'Europe/Berlin' });
    const fire = JSON.parse((schedule.input.Target as { Input: string }).Input.replace('<aws.scheduler.scheduled-time>', new Date().toISOString())) as unknown;
    expect(granted(await h.worker('jobs', [fire])).batchItemFailures).toEqual([]);
    expect(h.take('runs')).toHaveLength(1);
    const job = json(granted(await h.route('jobs.get', { path: `/v1/jobs/${jobId}`, key })));
    const run = json(granted(await h.route('runs.get', { path: `/v1/runs/${job.last_run.run_id}`, key })));
    expect(run).toMatchObject({ status: 'queued', job_id: jobId, scraper_id: 'page-content' });
  });

  it('the retention sweep deletes expired result files with the jobs worker\'s grants', async () => {
    const put = granted(await h.route('settings.storage.put', { path: '/dashboard/api/settings/storage', key, body: { retention_days: 1 } }));
    expect(put.statusCode).toBe(200);
    const blobs = new S3Blobs(h.stores.s3, { results: h.names.results, raw: h.names.raw });
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await putResultFile(h.table, blobs, tenantId, { key: 'qry_old_1', query_id: 'qry_old_1', job_id: null, created_at: old }, { old: true });
    // The periodic trigger fans out one message per tenant with a policy, then each is swept.
    expect(granted(await h.worker('jobs', [{ kind: 'storage.sweep' }])).batchItemFailures).toEqual([]);
    const perTenant = h.take('jobs');
    expect(perTenant.map((m) => JSON.parse(m.body).tenant_id)).toContain(tenantId);
    const sweep = await h.worker('jobs', perTenant);
    expect(granted(sweep).batchItemFailures).toEqual([]);
    expect(await blobs.get('results', `tenants/${tenantId}/results/qry_old_1`)).toBeUndefined();
    expect(granted(await h.route('storage.get', { path: '/v1/storage/qry_old_1', key })).statusCode).toBe(404);
  });
});

describe('agent endpoint', () => {
  it('mcp.post lists tools and reads through its grants', async () => {
    const r = granted(await h.route('mcp.post', { path: '/mcp', key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }));
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('tools');
  });
});

describe('read-only routes', () => {
  // GET routes hold table:read + table:pipeline: the pipeline's audit record and counters are
  // their only writes, and a delete or batch write would be denied.
  const reads: [string, string][] = [
    ['info.get', '/v1'], ['tenant.get', '/v1/tenant'], ['runs.list', '/v1/runs'], ['queries.list', '/v1/queries'],
    ['jobs.list', '/v1/jobs'], ['webhooks.list', '/v1/webhooks'], ['scrapers.list', '/v1/scrapers'],
    ['keys.list', '/dashboard/api/keys'], ['audit.list', '/dashboard/api/audit'], ['secrets.list', '/dashboard/api/secrets'],
    ['sources.list', '/dashboard/api/sources'], ['settings.storage.get', '/dashboard/api/settings/storage'],
    ['settings.webhooks.get', '/dashboard/api/settings/webhooks'], ['monitoring.get', '/dashboard/api/monitoring'],
  ];
  it.each(reads)('%s answers 200 with only read and pipeline writes', async (id, path) => {
    const inv = await h.route(id, { path, key });
    expect(granted(inv).statusCode).toBe(200);
    const writes = inv.calls.filter((c) => /^(Delete|BatchWrite)/.test(c.command));
    expect(writes).toEqual([]);
  });
});

describe('jobs lifecycle', () => {
  it('jobs.update and jobs.delete change and remove the schedule (UpdateSchedule, DeleteSchedule, PassRole)', async () => {
    const created = granted(await h.route('jobs.create', { path: '/v1/jobs', key, body: { label: 'Lifecycle', prompt: 'acme', sources: ['x'], schedule: '0 8 * * 1', limit: 5 } }));
    const jobId = json(created).job_id as string;
    const upd = await h.route('jobs.update', { path: `/v1/jobs/${jobId}`, key, body: { schedule: '0 9 * * 1' } });
    expect(granted(upd).statusCode).toBe(200);
    expect(upd.calls.map((c) => c.command)).toContain('UpdateScheduleCommand');
    const del = await h.route('jobs.delete', { path: `/v1/jobs/${jobId}`, key });
    expect(granted(del).statusCode).toBe(204);
    expect(del.calls.map((c) => c.command)).toContain('DeleteScheduleCommand');
  });
});

describe('changing routes', () => {
  it('keys.create and keys.revoke', async () => {
    const k = granted(await h.route('keys.create', { path: '/dashboard/api/keys', key, body: { name: 'ci', scopes: ['runs:read'] } }));
    expect(k.statusCode).toBe(201);
    const keyId = json(k).key_id as string;
    expect(granted(await h.route('keys.revoke', { path: `/dashboard/api/keys/${keyId}`, key })).statusCode).toBeLessThan(300);
  });

  it('webhooks.update and webhooks.delete', async () => {
    const w = granted(await h.route('webhooks.create', { path: '/v1/webhooks', key, body: { url: `${hooks.baseUrl}/changing` } }));
    const id = json(w).webhook_id as string;
    expect(granted(await h.route('webhooks.update', { path: `/v1/webhooks/${id}`, key, body: { status: 'disabled' } })).statusCode).toBe(200);
    expect(granted(await h.route('webhooks.delete', { path: `/v1/webhooks/${id}`, key })).statusCode).toBe(204);
  });

  it('captcha.policy.put, secrets.delete, sources.delete', async () => {
    expect(granted(await h.route('captcha.policy.put', { path: '/v1/captcha/policy', key, body: { on_challenge: 'skip_page' } })).statusCode).toBe(200);
    expect(granted(await h.route('secrets.put', { path: '/dashboard/api/secrets/to_delete', key, body: { value: 'x', domains: ['example.com'] } })).statusCode).toBeLessThan(300);
    expect(granted(await h.route('secrets.delete', { path: '/dashboard/api/secrets/to_delete', key })).statusCode).toBeLessThan(300);
    expect(granted(await h.route('sources.put', { path: '/dashboard/api/sources/x', key, body: { bearer_token: 'x-test-token' } })).statusCode).toBe(200);
    expect(granted(await h.route('sources.delete', { path: '/dashboard/api/sources/x', key })).statusCode).toBeLessThan(300);
  });

  it('runs.cancel on a queued run', async () => {
    const created = granted(await h.route('runs.create', { path: '/v1/runs', key, body: { scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` } } }));
    h.take('runs');
    h.take('deliveries');
    const r = granted(await h.route('runs.cancel', { path: `/v1/runs/${json(created).id as string}/cancel`, key }));
    expect(r.statusCode).toBe(202);
    // Ended by the cancel, never by a worker: the cancel announces it (run.completed).
    expect(h.take('deliveries').map((m) => JSON.parse(m.body))).toEqual([expect.objectContaining({ kind: 'run.completed', run_id: json(created).id, status: 'cancelled' })]);
  });

  it("a run job's run cancelled while queued: job.completed reaches the job's webhook, last_run says cancelled", async () => {
    const job = granted(await h.route('jobs.create', { path: '/v1/jobs', key, body: { label: 'About', scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` }, schedule: '0 0 1 1 *', webhook_url: `${hooks.baseUrl}/job-cancelled` } }));
    expect(job.statusCode).toBe(201);
    const jobId = json(job).job_id as string;
    const started = granted(await h.route('jobs.run', { path: `/v1/jobs/${jobId}/run`, key }));
    expect(started.statusCode).toBe(202);
    h.take('runs');
    h.take('deliveries');
    expect(granted(await h.route('runs.cancel', { path: `/v1/runs/${json(started).run_id as string}/cancel`, key })).statusCode).toBe(202);
    let deliveries = h.take('deliveries');
    for (let hop = 0; hop < 3 && deliveries.length; hop++) {
      expect(granted(await h.worker('deliveries', deliveries)).batchItemFailures).toEqual([]);
      deliveries = h.take('deliveries');
    }
    expect(hooks.at('/job-cancelled').map((w) => w.json)).toEqual([expect.objectContaining({ event: 'job.completed', job_id: jobId, run_id: json(started).run_id, status: 'cancelled' })]);
    const after = json(granted(await h.route('jobs.get', { path: `/v1/jobs/${jobId}`, key })));
    expect(after.last_run).toMatchObject({ run_id: json(started).run_id, status: 'cancelled' });
  });
});

describe('every role in the synthesized app', () => {
  const all = () => [
    ...routes.map((r) => ({ label: r.id, method: r.method, role: h.app.functionRole({ routeId: r.id, method: r.method, path: r.path }) })),
    ...workers.map((w) => ({ label: `${w.id} worker`, method: 'worker', role: h.app.functionRole({ workerId: w.id }) })),
  ];
  const actions = (r: { role: { statements: { Effect: string; Action: string | string[] }[] } }) =>
    r.role.statements.filter((s) => s.Effect === 'Allow').flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

  it('names every action on data resources: no wildcard actions', () => {
    const wild = all().flatMap((r) => actions(r).filter((a) => /^(dynamodb|s3|sqs|kms|scheduler|bedrock):.*\*/.test(a) || a === '*').map((a) => `${r.label}: ${a}`));
    expect(wild).toEqual([]);
  });

  it('gives read-only routes no deletes, batch writes, object writes or sends', () => {
    const bad = all().filter((r) => r.method === 'GET').flatMap((r) => actions(r)
      .filter((a) => ['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 's3:PutObject', 's3:DeleteObject', 'sqs:SendMessage'].includes(a))
      .map((a) => `${r.label}: ${a}`));
    expect(bad).toEqual([]);
  });

  it('lets no function list a bucket (no code path lists objects)', () => {
    expect(all().flatMap((r) => actions(r).filter((a) => a.startsWith('s3:List')).map((a) => `${r.label}: ${a}`))).toEqual([]);
  });
});
