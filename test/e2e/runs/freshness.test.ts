import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { run as admin } from '../../../functions/cli/admin.js';
import { keys } from '../../../functions/core/table-keys.js';
import { randomBytes } from 'node:crypto';
import { INLINE_MAX_BYTES, cacheKeyOf, readCachedAnswer, storeCachedAnswer } from '../../../functions/core/freshness/page-cache.js';

// API.md "Page actions and freshness": max_age answers from this tenant's own earlier fetch, with
// no request to the site (the fixture site counts every request, robots.txt included) and no
// page from the monthly quota; the call is audited like any other.

let svc: TestService;
let site: FixtureSite;
let tenantA: { tenant_id: string; api_key: string };
let tenantB: { tenant_id: string; api_key: string };
beforeAll(async () => {
  site = await startFixtureSite();
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${site.port}` });
  tenantA = (await admin(['tenants', 'create', '--name', 'fresh-a'], svc.deps.table)) as typeof tenantA;
  tenantB = (await admin(['tenants', 'create', '--name', 'fresh-b'], svc.deps.table)) as typeof tenantB;
});
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
});

const scrape = (key: string, json: Record<string, unknown>) => svc.call('/v1/scrape', { method: 'POST', key, json });
const pagesUsed = async (key: string) => (await svc.call('/v1/tenant', { key })).body.usage.pages as number;

describe('POST /v1/scrape with max_age', () => {
  it('answers a repeat from the earlier fetch: cached, its fetched_at, no request to the site, no page billed, audited', async () => {
    const body = { url: `${site.baseUrl}/article`, engine: 'http', formats: ['markdown', 'metadata'] };
    const before = Date.now();
    const first = await scrape(tenantA.api_key, { ...body, max_age: 60_000 });
    expect(first.status).toBe(200);
    expect(first.body.cached).toBeUndefined();
    const hits = site.hits();
    const pages = await pagesUsed(tenantA.api_key);
    expect(pages).toBe(1);

    const again = await scrape(tenantA.api_key, { ...body, max_age: 60_000, timeout_ms: 20_000 });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ cached: true, url: body.url, status_code: 200, markdown: first.body.markdown, metadata: first.body.metadata });
    const fetchedAt = Date.parse(again.body.fetched_at);
    expect(fetchedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(fetchedAt).toBeLessThanOrEqual(Date.now());
    expect(site.hits()).toBe(hits);
    expect(await pagesUsed(tenantA.api_key)).toBe(pages);

    await svc.deps.audit.flush();
    const audit = await svc.call('/dashboard/api/audit?limit=20', { key: tenantA.api_key });
    const rec = (audit.body.data as Array<{ request_id: string; action: string; status: number }>).filter((x) => x.request_id === again.headers.get('x-request-id'));
    expect(rec).toEqual([expect.objectContaining({ action: 'scrape.create', status: 200 })]);
  });

  it('fetches again without max_age, with other options, or when the earlier fetch is older than max_age', async () => {
    const body = { url: `${site.baseUrl}/about`, engine: 'http', formats: ['markdown'] };
    expect((await scrape(tenantA.api_key, body)).status).toBe(200); // an answer kept without max_age...
    let hits = site.hits('/about');
    const served = await scrape(tenantA.api_key, { ...body, max_age: 60_000 }); // ...serves a later max_age request
    expect(served.body.cached).toBe(true);
    expect(site.hits('/about')).toBe(hits);

    const plain = await scrape(tenantA.api_key, body);
    expect(plain.body.cached).toBeUndefined();
    expect(site.hits('/about')).toBe(++hits);
    const otherFormats = await scrape(tenantA.api_key, { ...body, formats: ['text'], max_age: 60_000 });
    expect(otherFormats.body.cached).toBeUndefined();
    expect(site.hits('/about')).toBe(++hits);
    await new Promise((r) => setTimeout(r, 30));
    const tooOld = await scrape(tenantA.api_key, { ...body, max_age: 20 });
    expect(tooOld.body.cached).toBeUndefined();
    expect(site.hits('/about')).toBe(hits + 1);
  });

  it('matches the same URL up to its normal form (tracking parameters, parameter order, fragment)', async () => {
    const first = await scrape(tenantA.api_key, { url: `${site.baseUrl}/products?page=2&sort=asc`, engine: 'http', formats: ['links'] });
    expect(first.status).toBe(200);
    const hits = site.hits();
    const again = await scrape(tenantA.api_key, { url: `${site.baseUrl}/products?utm_source=x&sort=asc&page=2#top`, engine: 'http', formats: ['links'], max_age: 60_000 });
    expect(again.body.cached).toBe(true);
    expect(site.hits()).toBe(hits);
  });

  it('never serves one tenant another tenant’s answer', async () => {
    const body = { url: `${site.baseUrl}/article`, engine: 'http', formats: ['markdown', 'metadata'], max_age: 60_000 };
    expect((await scrape(tenantA.api_key, body)).body.cached).toBe(true); // A has it (first test)
    const hits = site.hits('/article');
    const b = await scrape(tenantB.api_key, body);
    expect(b.status).toBe(200);
    expect(b.body.cached).toBeUndefined();
    expect(site.hits('/article')).toBe(hits + 1);
    expect(await pagesUsed(tenantB.api_key)).toBe(1);
  });

  it('keeps only 2xx answers', async () => {
    const body = { url: `${site.baseUrl}/no-such-page`, engine: 'http', formats: ['markdown'], max_age: 60_000 };
    expect((await scrape(tenantA.api_key, body)).body.status_code).toBe(404);
    const hits = site.hits('/no-such-page');
    const again = await scrape(tenantA.api_key, body);
    expect(again.body.cached).toBeUndefined();
    expect(site.hits('/no-such-page')).toBe(hits + 1);
  });

  it('ignores a pointer past its expiry time even where the table has no TTL (dynalite)', async () => {
    const body = { url: `${site.baseUrl}/about`, engine: 'http', formats: ['links'] };
    expect((await scrape(tenantA.api_key, body)).status).toBe(200);
    const parsed = { ...body, timeout_ms: 30_000 }; // as the API stores it, defaults applied
    const key = keys.record(tenantA.tenant_id, 'PCACHE', cacheKeyOf('scrape', parsed));
    const ptr = await svc.deps.table.get(key);
    expect(ptr?.expires_at).toEqual(expect.any(Number));
    await svc.deps.table.put({ ...ptr!, ...key, expires_at: Math.floor(Date.now() / 1000) - 1 });
    const hits = site.hits('/about');
    const again = await scrape(tenantA.api_key, { ...body, max_age: 60_000 });
    expect(again.body.cached).toBeUndefined();
    expect(site.hits('/about')).toBe(hits + 1);
  });

  // A cached answer should cost one table read: a small answer lives in its pointer item, so no
  // object read (tens of ms on S3) stands between a process that has not seen it and the answer.
  it('keeps a small answer inside its pointer item: no object is written and the item alone serves it', async () => {
    const body = { url: `${site.baseUrl}/article`, engine: 'http', formats: ['markdown', 'links'] };
    const first = await scrape(tenantA.api_key, body);
    expect(first.status).toBe(200);
    const hash = cacheKeyOf('scrape', { ...body, timeout_ms: 30_000 });
    const ptr = await svc.deps.table.get(keys.record(tenantA.tenant_id, 'PCACHE', hash));
    expect(ptr?.body_gz).toEqual(expect.any(String));
    expect(await svc.deps.blobs.get('raw', `tenants/${tenantA.tenant_id}/page-cache/${hash}.json`)).toBeFalsy();
    const again = await scrape(tenantA.api_key, { ...body, max_age: 60_000 });
    expect(again.body).toMatchObject({ cached: true, markdown: first.body.markdown, links: first.body.links });
  });

  it('keeps a large answer as an object its pointer names, and reads it back', async () => {
    // Incompressible text, so the gzipped answer is well over the inline limit.
    const value = { url: 'https://example.com/big', markdown: randomBytes(INLINE_MAX_BYTES * 2).toString('base64') };
    const fetchedAt = new Date().toISOString();
    await storeCachedAnswer(svc.deps, tenantB.tenant_id, 'bighash', fetchedAt, value);
    const ptr = await svc.deps.table.get(keys.record(tenantB.tenant_id, 'PCACHE', 'bighash'));
    expect(ptr).toMatchObject({ fetched_at: fetchedAt });
    expect(ptr?.body_gz).toBeUndefined();
    expect(await svc.deps.blobs.get('raw', `tenants/${tenantB.tenant_id}/page-cache/bighash.json`)).toBeTruthy();
    expect(await readCachedAnswer(svc.deps, tenantB.tenant_id, 'bighash', 60_000, new Date())).toEqual({ fetched_at: fetchedAt, value });
    // Another tenant never reads it, whatever the hash.
    expect(await readCachedAnswer(svc.deps, tenantA.tenant_id, 'bighash', 60_000, new Date())).toBeNull();
  });

  // Governance is never skipped: the target policy is checked before the cache is read, so an
  // answer kept for a host the tenant may not reach is never served.
  it('refuses a URL the target policy does not allow even when an answer for it is kept', async () => {
    const tenantC = (await admin(['tenants', 'create', '--name', 'fresh-c'], svc.deps.table)) as typeof tenantA;
    await svc.deps.table.update(keys.tenant(tenantC.tenant_id), { set: { target_policy: { mode: 'allowlist', domains: ['example.org'] } } });
    const body = { url: `${site.baseUrl}/article`, engine: 'http', formats: ['markdown'] };
    await storeCachedAnswer(svc.deps, tenantC.tenant_id, cacheKeyOf('scrape', { ...body, timeout_ms: 30_000 }), new Date().toISOString(), { url: body.url, status_code: 200, markdown: 'kept' });
    const hits = site.hits();
    const r = await scrape(tenantC.api_key, { ...body, max_age: 60_000 });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('target_not_authorized');
    expect(site.hits()).toBe(hits);
  });

  // Issue 37 finding 13: a kept answer is served only to what may be fetched now. robots.txt is
  // checked as for a fetch (the answer here was kept before the site disallowed the path), and the
  // target policy as it is now, not as the authentication's cached tenant (up to 2 s old) says.
  it('does not serve a kept answer for a URL robots.txt disallows now', async () => {
    const body = { url: `${site.baseUrl}/private/report`, engine: 'http', formats: ['markdown'] };
    await storeCachedAnswer(svc.deps, tenantA.tenant_id, cacheKeyOf('scrape', { ...body, timeout_ms: 30_000 }), new Date().toISOString(), { url: body.url, status_code: 200, markdown: 'kept' });
    const r = await scrape(tenantA.api_key, { ...body, max_age: 60_000 });
    expect(r.body.cached).toBeUndefined();
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('robots_disallowed');
  });

  it('does not serve a kept answer in the moment after the target policy changed', async () => {
    const tenantD = (await admin(['tenants', 'create', '--name', 'fresh-d'], svc.deps.table)) as typeof tenantA;
    const body = { url: `${site.baseUrl}/article`, engine: 'http', formats: ['markdown'] };
    await storeCachedAnswer(svc.deps, tenantD.tenant_id, cacheKeyOf('scrape', { ...body, timeout_ms: 30_000 }), new Date().toISOString(), { url: body.url, final_url: body.url, status_code: 200, engine_used: 'http', markdown: 'kept' });
    // Served while the policy allows it (and the tenant is now in the API's authentication cache)...
    expect((await scrape(tenantD.api_key, { ...body, max_age: 60_000 })).body).toMatchObject({ cached: true, markdown: 'kept' });
    // ...and refused at once when another process narrowed it.
    await svc.deps.table.update(keys.tenant(tenantD.tenant_id), { set: { target_policy: { mode: 'allowlist', domains: ['example.org'] } } });
    const r = await scrape(tenantD.api_key, { ...body, max_age: 60_000 });
    expect(r.body.cached).toBeUndefined();
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('target_not_authorized');
  });

  it('answers 400 for a max_age that is not a non-negative integer or is beyond 30 days', async () => {
    for (const max_age of [-1, 1.5, 'soon', 31 * 24 * 3600 * 1000]) {
      const r = await scrape(tenantA.api_key, { url: `${site.baseUrl}/about`, max_age });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_request');
      expect(JSON.stringify(r.body.details)).toContain('max_age');
    }
  });
});

describe('page-content with max_age', () => {
  const runItems = async (key: string, input: Record<string, unknown>) => {
    const created = await svc.call('/v1/runs', { method: 'POST', key, json: { scraper_id: 'page-content', input } });
    expect(created.status).toBe(201);
    let run = created.body;
    while (run.status === 'queued' || run.status === 'running') run = (await svc.call(`/v1/runs/${run.id}?wait=5`, { key })).body;
    expect(run.status).toBe('succeeded');
    return (await svc.call(`/v1/runs/${run.id}/results`, { key })).body.data as Array<Record<string, unknown>>;
  };

  it('emits the earlier item with cached: true and its fetched_at, without a request or a page billed', async () => {
    const input = { url: `${site.baseUrl}/pages/1`, engine: 'http' };
    const [first] = await runItems(tenantB.api_key, input);
    const hits = site.hits();
    const pages = await pagesUsed(tenantB.api_key);
    const [again] = await runItems(tenantB.api_key, { ...input, max_age: 3_600_000 });
    expect(again).toMatchObject({ cached: true, fetched_at: first!.fetched_at, url: first!.url, data: first!.data });
    expect(site.hits()).toBe(hits);
    expect(await pagesUsed(tenantB.api_key)).toBe(pages);
    // Tenant A has never read that page: its max_age run fetches it.
    const [a] = await runItems(tenantA.api_key, { ...input, max_age: 3_600_000 });
    expect(a!.cached).toBeUndefined();
    expect(site.hits()).toBeGreaterThan(hits);
  });
});
