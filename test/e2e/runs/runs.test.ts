import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, startCanary, type FixtureSite, type Canary } from '../../fixtures/site/server.js';
import { run as admin } from '../../../functions/cli/admin.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.js';
import { verifySignature } from '../../../functions/core/webhooks/signature.js';

let svc: TestService;
let site: FixtureSite;
let canary: Canary;
let rx: WebhookReceiver;

beforeAll(async () => {
  canary = await startCanary();
  site = await startFixtureSite({ canaryUrl: canary.url });
  rx = await startWebhookReceiver();
  // The webhook receiver's host:port is exempt from the private-address block (API.md Local mode).
  // Three runs at once (default 2), so the burst test below shows the bound comes from config.
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${site.port},${rx.hostPort}`, GLEANER_CONCURRENCY_RUNS: '3' });
});
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
  await canary?.close();
  await rx?.close();
});

const startRun = (json: unknown, key?: string) => svc.call('/v1/runs', { method: 'POST', json, key });
const waitRun = async (id: string) => {
  for (let i = 0; i < 10; i++) {
    const r = await svc.call(`/v1/runs/${id}?wait=20`);
    if (['succeeded', 'failed', 'timed_out', 'cancelled', 'blocked'].includes(r.body.status)) return r.body;
  }
  throw new Error('run did not finish');
};

describe('scrapers and runs', () => {
  it('lists the built-in scrapers with input schemas', async () => {
    const r = await svc.call('/v1/scrapers');
    expect(r.status).toBe(200);
    const ids = r.body.data.map((s: { scraper_id: string }) => s.scraper_id);
    expect(ids).toEqual(expect.arrayContaining(['page-content', 'css-extract', 'site-crawl']));
    for (const s of r.body.data) expect(s).toMatchObject({ name: expect.any(String), engine: expect.stringMatching(/^(http|browser|auto)$/), input_schema: expect.any(Object), builtin: true });
  });

  it('runs page-content: create, poll, results', async () => {
    const c = await startRun({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/article` } });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ id: expect.stringMatching(/^run_/), status: 'queued', progress: { pages_done: 0 } });
    const run = await waitRun(c.body.id);
    expect(run.status).toBe('succeeded');
    expect(run.progress).toMatchObject({ pages_done: 1, items: 1 });
    expect(run.stats.requests).toBeGreaterThanOrEqual(1);
    const res = await svc.call(`/v1/runs/${c.body.id}/results`);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ url: `${site.baseUrl}/article`, status_code: 200, data: { title: expect.any(String), markdown: expect.any(String) } });
    expect(res.body.next_cursor).toBeNull();
  });

  it('runs css-extract across 3 pages; results page with a cursor and export as NDJSON and CSV', async () => {
    const c = await startRun({ scraper_id: 'css-extract', input: { url: `${site.baseUrl}/products?page=1`, item_selector: 'li.product', fields: { name: { selector: '.name' }, price: { selector: '.price' } }, next_page: 'a.next', max_pages: 5 } });
    expect(c.status).toBe(201);
    const run = await waitRun(c.body.id);
    expect(run.status).toBe('succeeded');
    expect(run.progress.pages_done).toBe(3);
    const p1 = await svc.call(`/v1/runs/${c.body.id}/results?limit=5`);
    expect(p1.body.data).toHaveLength(5);
    const p2 = await svc.call(`/v1/runs/${c.body.id}/results?limit=50&cursor=${p1.body.next_cursor}`);
    expect(p2.body.data).toHaveLength(7);
    expect([...p1.body.data, ...p2.body.data].map((i: { data: { name: string } }) => i.data.name)).toEqual(Array.from({ length: 12 }, (_, i) => `Product ${i + 1}`));
    const nd = await svc.call(`/v1/runs/${c.body.id}/results?format=ndjson`);
    expect(nd.headers.get('content-type')).toContain('ndjson');
    expect(nd.text.trim().split('\n')).toHaveLength(12);
    const csv = await svc.call(`/v1/runs/${c.body.id}/results?format=csv`);
    expect(csv.text.split('\r\n')[0]).toBe('url,fetched_at,status_code,name,price');
    expect(csv.text).toContain('Product 12');
  });

  it('runs site-crawl within max_pages, same-site only, skipping robots-disallowed pages (counted and logged)', async () => {
    const c = await startRun({ scraper_id: 'site-crawl', input: { start_url: `${site.baseUrl}/crawl/`, max_pages: 6, max_depth: 2, include: ['/**'] } });
    const run = await waitRun(c.body.id);
    expect(run.status).toBe('succeeded');
    expect(run.progress.pages_done).toBeLessThanOrEqual(6);
    expect(run.stats.robots_skipped).toBeGreaterThanOrEqual(1);
    expect(site.hits('/private/hidden')).toBe(0);
    const items = (await svc.call(`/v1/runs/${c.body.id}/results`)).body.data;
    expect(items.every((i: { url: string }) => i.url.startsWith(site.baseUrl))).toBe(true);
    const logs = (await svc.call(`/v1/runs/${c.body.id}/log`)).body.data;
    expect(logs.some((l: { decision: string; url: string }) => l.decision === 'robots_skipped' && l.url.includes('/private/'))).toBe(true);
  });

  it('validates runs: unknown scraper, bad input, forbidden and unauthorized targets', async () => {
    const u = await startRun({ scraper_id: 'nope', input: {} });
    expect(u.status).toBe(400);
    const bad = await startRun({ scraper_id: 'page-content', input: { url: 'not a url' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('body.input.url');
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', `http://127.0.0.1:${canary.port}/`, 'http://[::ffff:127.0.0.1]/', 'http://2130706433/']) {
      const f = await startRun({ scraper_id: 'page-content', input: { url } });
      expect(f.status, url).toBe(400);
      expect(f.body.code, url).toBe('target_forbidden');
    }
    const ftp = await startRun({ scraper_id: 'page-content', input: { url: 'ftp://example.com/x' } });
    expect(ftp.status).toBe(400);
    const t = (await admin(['tenants', 'create', '--name', 'strict'], svc.deps.table)) as { tenant_id: string; api_key: string };
    await admin(['tenants', 'set-policy', t.tenant_id, '--mode', 'allowlist', '--domains', 'example.org'], svc.deps.table);
    const na = await startRun({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/` } }, t.api_key);
    expect(na.status).toBe(400);
    expect(na.body.code).toBe('target_not_authorized');
    expect(canary.connections()).toBe(0);
  });

  it('fails a run whose page redirects to a forbidden address, without touching it', async () => {
    const c = await startRun({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/redirect-canary` } });
    const run = await waitRun(c.body.id);
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('target_forbidden');
    expect(canary.connections()).toBe(0);
  });

  it('ends a run at a challenge as blocked and records the encounter; nothing is solved', async () => {
    const c = await startRun({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/challenge` } });
    const run = await waitRun(c.body.id);
    expect(run.status).toBe('blocked');
    const enc = await svc.call(`/v1/captcha/encounters?run_id=${c.body.id}`);
    expect(enc.body.data[0]).toMatchObject({ run_id: c.body.id, kind: 'cloudflare_challenge', action: 'stopped_run' });
    expect(site.hits('/challenge')).toBe(1);
  });

  it('cancels a queued/running run, and 409 for a finished one', async () => {
    const c = await startRun({ scraper_id: 'site-crawl', input: { start_url: `${site.baseUrl}/crawl/`, max_pages: 50, max_depth: 3 } });
    const x = await svc.call(`/v1/runs/${c.body.id}/cancel`, { method: 'POST' });
    expect(x.status).toBe(202);
    const run = await waitRun(c.body.id);
    expect(run.status).toBe('cancelled');
    const again = await svc.call(`/v1/runs/${c.body.id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
  });

  it('ends a run cleanly at its page limit with the reason recorded', async () => {
    const c = await startRun({ scraper_id: 'site-crawl', input: { start_url: `${site.baseUrl}/crawl/`, max_pages: 50, max_depth: 3 }, limits: { max_pages: 2 } });
    const run = await waitRun(c.body.id);
    expect(run.status).toBe('succeeded');
    expect(run.stop_reason).toBe('max_pages');
    expect(run.progress.pages_done).toBe(2);
  });

  it('marks a dead-lettered run failed with the reason, and a redelivered message never duplicates items', async () => {
    const { worker } = await import('../../../functions/workers/runs-worker.js');
    const c = await startRun({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` } });
    const run = await waitRun(c.body.id);
    await worker.handle({ kind: 'run.start', tenant_id: svc.tenantId, run_id: c.body.id }, { receiveCount: 2, messageId: 'dup' });
    expect((await svc.call(`/v1/runs/${c.body.id}/results`)).body.data).toHaveLength(1);
    expect((await svc.call(`/v1/runs/${c.body.id}`)).body.finished_at).toBe(run.finished_at);

    const { keys } = await import('../../../functions/core/table-keys.js');
    const q = await startRun({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` } });
    await svc.queue.idle();
    await svc.deps.table.update(keys.record(svc.tenantId, 'RUN', q.body.id), { set: { status: 'running', finished_at: null } });
    await worker.onDeadLetter({ kind: 'run.start', tenant_id: svc.tenantId, run_id: q.body.id }, 'worker crashed 3 times');
    const failed = (await svc.call(`/v1/runs/${q.body.id}`)).body;
    expect(failed.status).toBe('failed');
    expect(failed.error.message).toContain('worker crashed 3 times');
  });

  it('queues a burst of runs behind the runs worker concurrency from config and finishes them all', async () => {
    const before = svc.queue.stats('runs');
    expect(before.active).toBe(0);
    // The page is held until the whole burst is queued: a fast run can no longer finish before the
    // next is queued, so the peaks below do not depend on the machine's speed.
    const release = site.hold('/article');
    let burst;
    try {
      burst = await Promise.all(Array.from({ length: 10 }, (_, i) => startRun({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/article?burst=${i}` } })));
      expect(burst.map((r) => r.status)).toEqual(Array(10).fill(201));
      await expect.poll(() => svc.queue.stats('runs'), { timeout: 20_000 }).toMatchObject({ active: 3, waiting: 7 });
    } finally {
      release();
    }
    const runs = await Promise.all(burst.map((r) => waitRun(r.body.id)));
    expect(runs.map((r) => r.status)).toEqual(Array(10).fill('succeeded'));
    const after = svc.queue.stats('runs');
    expect(after.peakActive).toBe(3); // GLEANER_CONCURRENCY_RUNS: never more at once
    expect(after.peakWaiting).toBeGreaterThan(0); // the rest waited their turn
    // A run is 'succeeded' once its status is written; its invocation still ends (usage, log)
    // before its message is deleted, so the queue empties a moment later.
    await expect.poll(() => svc.queue.depth('runs'), { timeout: 20_000 }).toBe(0);
  });

  it('lists runs newest first, filtered by status, and hides other tenants', async () => {
    const all = await svc.call('/v1/runs?limit=3');
    expect(all.body.data).toHaveLength(3);
    const ok = await svc.call('/v1/runs?status=succeeded');
    expect(ok.body.data.every((r: { status: string }) => r.status === 'succeeded')).toBe(true);
    const t = (await admin(['tenants', 'create', '--name', 'nosy'], svc.deps.table)) as { api_key: string };
    expect((await svc.call(`/v1/runs/${all.body.data[0].id}`, { key: t.api_key })).status).toBe(404);
  });
});

describe('runbooks', () => {
  it('creates, tests, publishes and runs a runbook; published runbooks are listed as scrapers', async () => {
    const body = {
      name: 'Product names',
      description: 'Names and prices from the product list',
      steps: [
        { action: 'goto', url: { input: 'start' } },
        { action: 'extract', item_selector: 'li.product', fields: { name: { selector: '.name' }, price: { selector: '.price' } } },
        { action: 'paginate', next: 'a.next', max_pages: 2 },
      ],
      published: false,
    };
    const bad = await svc.call('/v1/runbooks', { method: 'POST', json: { ...body, steps: [{ action: 'click', selector: 'a' }] } });
    expect(bad.status).toBe(400);
    const c = await svc.call('/v1/runbooks', { method: 'POST', json: body });
    expect(c.status).toBe(201);
    const id = c.body.id as string;
    expect((await svc.call('/v1/scrapers')).body.data.some((s: { scraper_id: string }) => s.scraper_id === id)).toBe(false);
    const t = await svc.call(`/v1/runbooks/${id}/test`, { method: 'POST', json: { input: { start: `${site.baseUrl}/products?page=1` } } });
    expect(t.status).toBe(200);
    expect(t.body.status).toBe('succeeded');
    expect(t.body.items).toHaveLength(8);
    expect(t.body.log.map((l: { action: string }) => l.action)).toEqual(expect.arrayContaining(['goto', 'extract', 'paginate']));
    expect((await svc.call(`/v1/runbooks/${id}`, { method: 'PUT', json: { ...body, published: true } })).body.published).toBe(true);
    const listed = (await svc.call('/v1/scrapers')).body.data.find((s: { scraper_id: string }) => s.scraper_id === id);
    expect(listed).toMatchObject({ name: 'Product names', builtin: false });
    const missing = await startRun({ scraper_id: id, input: {} });
    expect(missing.status).toBe(400);
    const run = await startRun({ scraper_id: id, input: { start: `${site.baseUrl}/products?page=1` } });
    expect(run.status).toBe(201);
    expect((await waitRun(run.body.id)).status).toBe('succeeded');
    expect((await svc.call(`/v1/runs/${run.body.id}/results`)).body.data).toHaveLength(8);
    expect((await svc.call(`/v1/runbooks/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await svc.call(`/v1/runbooks/${id}`)).status).toBe(404);
  });
});

describe('run.completed webhook', () => {
  it('POSTs a signed run.completed to the run\'s webhook_url; results_url serves the items', async () => {
    const c = await startRun({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` }, webhook_url: `${rx.baseUrl}/hook` });
    expect(c.status).toBe(201);
    const [got] = await rx.waitFor('/hook', 1);
    expect(got!.json).toMatchObject({ event: 'run.completed', run_id: c.body.id, status: 'succeeded', results_url: expect.stringContaining(`/v1/runs/${c.body.id}/results`) });
    const { signing_secret } = (await svc.call('/dashboard/api/settings/webhooks')).body;
    const h = got!.headers;
    expect(verifySignature(signing_secret, { id: String(h['webhook-id']), timestamp: String(h['webhook-timestamp']), signature: String(h['webhook-signature']) }, got!.body)).toBe(true);
    const items = await svc.call(new URL(got!.json.results_url).pathname);
    expect(items.body.data).toHaveLength(1);
    let log;
    for (let i = 0; i < 50; i++) {
      log = await svc.call(`/v1/runs/${c.body.id}/deliveries`);
      if (log.body.data[0]?.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(log!.body.data[0]).toMatchObject({ event: 'run.completed', status: 'succeeded', attempts: 1, last_status_code: 200 });
  });

  it('lets a disabled webhook endpoint be enabled again', async () => {
    const w = await svc.call('/v1/webhooks', { method: 'POST', json: { url: `${rx.baseUrl}/registered`, events: ['run.completed'] } });
    expect(w.status).toBe(201);
    const off = await svc.call(`/v1/webhooks/${w.body.webhook_id}`, { method: 'PATCH', json: { status: 'disabled' } });
    expect(off.body).toMatchObject({ status: 'disabled', disabled_reason: expect.any(String) });
    const on = await svc.call(`/v1/webhooks/${w.body.webhook_id}`, { method: 'PATCH', json: { status: 'enabled' } });
    expect(on.body).toMatchObject({ status: 'enabled', disabled_at: null });
    expect((await svc.call(`/v1/webhooks/${w.body.webhook_id}`, { method: 'PATCH', json: { status: 'paused' } })).status).toBe(400);
    expect((await svc.call('/v1/webhooks/whk_00000000000000000000000000', { method: 'PATCH', json: { status: 'enabled' } })).status).toBe(404);
  });
});

describe('quotas', () => {
  it('answers 402 quota_exhausted once the monthly page quota is used, and blocked pages are not billed', async () => {
    const t = (await admin(['tenants', 'create', '--name', 'metered'], svc.deps.table)) as { tenant_id: string; api_key: string };
    await admin(['tenants', 'set-limits', t.tenant_id, '--monthly-pages', '1'], svc.deps.table);
    const blocked = await startRun({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/challenge` } }, t.api_key);
    expect((await svc.call(`/v1/runs/${blocked.body.id}?wait=20`, { key: t.api_key })).body.status).toBe('blocked');
    const ok = await startRun({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` } }, t.api_key);
    expect(ok.status).toBe(201);
    expect((await svc.call(`/v1/runs/${ok.body.id}?wait=20`, { key: t.api_key })).body.status).toBe('succeeded');
    const over = await startRun({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/about` } }, t.api_key);
    expect(over.status).toBe(402);
    expect(over.body.code).toBe('quota_exhausted');
    const usage = await svc.call('/v1/tenant', { key: t.api_key });
    expect(usage.body.usage.pages).toBe(1);
  });
});

describe('synchronous scrape', () => {
  it('scrapes a static page with the http engine', async () => {
    const r = await svc.call('/v1/scrape', { method: 'POST', json: { url: `${site.baseUrl}/article`, formats: ['markdown', 'links', 'metadata'] } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ url: `${site.baseUrl}/article`, final_url: `${site.baseUrl}/article`, status_code: 200, engine_used: 'http', markdown: expect.any(String) });
    expect(r.body.html).toBeUndefined();
  });

  it('extracts fields and refuses robots-disallowed and forbidden targets', async () => {
    const r = await svc.call('/v1/scrape', { method: 'POST', json: { url: `${site.baseUrl}/products?page=2`, engine: 'http', extract: { fields: { names: { selector: '.name', all: true } } } } });
    expect(r.body.extracted.names).toEqual(['Product 5', 'Product 6', 'Product 7', 'Product 8']);
    const robots = await svc.call('/v1/scrape', { method: 'POST', json: { url: `${site.baseUrl}/private/x` } });
    expect(robots.status).toBe(422);
    expect(robots.body.code).toBe('robots_disallowed');
    const f = await svc.call('/v1/scrape', { method: 'POST', json: { url: 'http://192.168.1.1/' } });
    expect(f.body.code).toBe('target_forbidden');
  });
});
