import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { routes } from '../../../functions/routes.js';
import { allContracts } from '../../../functions/http/contracts/index.js';
import { newId } from '../../../functions/core/ids.js';
import { keys } from '../../../functions/core/table-keys.js';
import { createTenant } from '../../../functions/core/tenancy/tenants.js';
import { finishedRun, seedFinishedCrawl } from '../../fixtures/finished-crawl.js';

/**
 * Issue 19 finding 4: well-formed but hostile cursors on every list route. A cursor is bound to
 * the list (and run, and tenant) it came from and its position is checked; anything else is a
 * 400 `invalid_cursor`, never a 500 and never another list's records.
 */
let svc: TestService;
let crawlRunId: string;
let itemsRunId: string;

/** Every GET route whose contract takes `?cursor=`, with its path filled in. */
const listRoutes = routes
  .filter((r) => r.method === 'GET' && 'cursor' in (((allContracts as Record<string, { query?: { shape?: object } }>)[r.id]?.query?.shape) ?? {}))
  .map((r) => r);

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

beforeAll(async () => {
  svc = await startTestService();
  svc.queue.stop();
  crawlRunId = (await seedFinishedCrawl(svc.deps.table, svc.tenantId, 30)).id;
  const run = finishedRun(svc.tenantId, 3, { crawl: false, scraper_id: 'page-content', item_pages: 2 });
  await svc.deps.table.put({ ...keys.record(svc.tenantId, 'RUN', run.id), ...run });
  itemsRunId = run.id;
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
});

const pathOf = (path: string, runId = itemsRunId) =>
  path.replace('{id}', runId).replace('{job_id}', newId('job')).replace('{webhook_id}', newId('whk'));
const list = (path: string, cursor: string) => svc.call(`${path}?limit=1&cursor=${encodeURIComponent(cursor)}`);

/** A real next_cursor of the runs list (three runs were seeded: it has several pages). */
async function runsCursor(): Promise<string> {
  const r = await svc.call('/v1/runs?limit=1');
  expect(r.body.next_cursor).toEqual(expect.any(String));
  return r.body.next_cursor;
}

describe('hostile cursors on every list route', () => {
  it('finds the list routes', () => {
    expect(listRoutes.map((r) => r.id)).toEqual(expect.arrayContaining(['runs.list', 'runs.results', 'audit.list', 'webhooks.list', 'jobs.list']));
  });

  it('a crawl results cursor with an impossible ordinal is 400 invalid_cursor, not a 500', async () => {
    const page = await svc.call(`/v1/runs/${crawlRunId}/results?limit=2`);
    expect(page.status).toBe(200);
    const [tag] = page.body.next_cursor.split('.');
    for (const ord of [1e12, 10_000_000_000, -1, 1.5, '5', null]) {
      for (const cursor of [b64({ ord }), `${tag}.${b64({ ord })}`]) {
        const r = await list(`/v1/runs/${crawlRunId}/results`, cursor);
        expect(r.status, `ord ${ord} as ${cursor}`).toBe(400);
        expect(r.body).toMatchObject({ code: 'invalid_cursor', message: expect.any(String) });
      }
    }
    // The cursor it handed out still works.
    expect((await list(`/v1/runs/${crawlRunId}/results`, page.body.next_cursor)).status).toBe(200);
  });

  it('a results cursor of one run does not continue another run', async () => {
    const page = await svc.call(`/v1/runs/${crawlRunId}/results?limit=2`);
    const other = (await seedFinishedCrawl(svc.deps.table, svc.tenantId, 5)).id;
    const r = await list(`/v1/runs/${other}/results`, page.body.next_cursor);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_cursor');
    for (const cursor of [b64({ p: 1e15, o: -1 }), b64({ p: 0, o: 0, x: 1 })]) {
      const bad = await list(`/v1/runs/${itemsRunId}/results`, cursor);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('invalid_cursor');
    }
  });

  it('another list’s cursor, a tampered position, another tenant’s partition and junk are 400 invalid_cursor on every list', async () => {
    const real = await runsCursor();
    const [tag, payload] = real.split('.');
    const key = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, string>;
    const other = await createTenant(svc.deps.table, 'other', new Date());
    const tampered = [
      `${tag}.${b64({ ...key, sk: 'ZZZZ#out-of-range' })}`,
      `${tag}.${b64({ ...key, pk: keys.tenantPk(other.tenant_id) })}`,
      `${tag}.${b64({ ...key, extra: 'x' })}`,
      `${tag}.${b64({ pk: key.pk })}`,
      `${tag}.${b64({ ...key, sk: 7 })}`,
    ];
    const hostile = [b64({ pk: key.pk, sk: key.sk }), b64({ ord: 1e12 }), 'not a cursor', 'a'.repeat(5000), `${tag}.`, '.'];
    for (const route of listRoutes) {
      const path = pathOf(route.path);
      // The datasets list pages through the runs list itself: the runs cursor is its own there.
      const sameList = route.id === 'runs.list' || route.id === 'datasets.list';
      const cursors = sameList ? [...tampered, ...hostile] : [real, ...tampered.slice(0, 2), ...hostile];
      for (const cursor of cursors) {
        const r = await list(path, cursor);
        expect(r.status, `${route.id} ${cursor.slice(0, 60)}`).toBeLessThan(500);
        if (r.status === 404) continue; // a job or webhook that does not exist is looked up first
        expect(r.status, `${route.id} ${cursor.slice(0, 60)}`).toBe(400);
        expect(r.body.code, `${route.id} ${cursor.slice(0, 60)}`).toMatch(/^invalid_(cursor|request)$/);
        if (cursor.length < 4096 && cursor !== 'not a cursor') expect(r.body.code).toBe('invalid_cursor');
      }
    }
    // The real cursor still continues its own list.
    expect((await list('/v1/runs', real)).status).toBe(200);
  });
});
