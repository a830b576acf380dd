import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { keys } from '../../../functions/core/table-keys.js';
import { crawlHasItem, crawlItem, crawlUrl, finishedRun, seedFinishedCrawl } from '../../fixtures/finished-crawl.js';
import { CRAWL_EXPORT_PAGE } from '../../../functions/core/crawl/crawl-results.js';
import { ItemWriter } from '../../../functions/core/runs/run-items.js';
import { exportRunItems } from '../../../functions/core/runs/run-export.js';
import type { RunRecord } from '../../../functions/core/runs/run-record.js';
import type { ScrapeItem } from '../../../functions/core/scrapers/types.js';
import type { QuerySpec, Table } from '../../../functions/ports/table.js';

// Issue 12, "Limits": exports stream 100,000 items without buffering them. A finished crawl is
// seeded straight into the table (its frontier page records, done with their items, as the crawl
// workers leave them) and exported through the API as NDJSON and CSV. The suite uses 20,000
// items (~15 s); GLEANER_TEST_EXPORT_ITEMS=100000 runs the full size (~80 s on 2 cores: 40 s of
// it seeding). Memory is asserted structurally: reads are table pages, and none runs ahead of
// what the consumer took.
const N = Number(process.env.GLEANER_TEST_EXPORT_ITEMS ?? 20_000);
const url = crawlUrl;
const item = crawlItem;
const hasItem = crawlHasItem;
const runRecord = (tenantId: string, over: Partial<RunRecord>) => finishedRun(tenantId, N, over);

let svc: TestService;

/** Counts (and can hold) the table reads of one crawl's frontier pages. */
function watchFrontierReads(table: Table, runId: string) {
  const original = table.query.bind(table);
  const state = { started: 0, finished: 0, limits: [] as number[], gate: null as Promise<void> | null };
  table.query = (async (spec: QuerySpec) => {
    if (!spec.pk.includes(`#CRAWL#${runId}#`)) return original(spec);
    state.started++;
    state.limits.push(spec.limit ?? Infinity);
    if (state.gate && state.started > 1) await state.gate;
    const r = await original(spec);
    state.finished++;
    return r;
  }) as Table['query'];
  return { state, restore: () => (table.query = original) };
}

/** Reads a streamed body line by line without keeping it: calls `onLine` for each line. */
async function eachLine(body: ReadableStream<Uint8Array>, sep: string, onLine: (line: string) => void): Promise<number> {
  const dec = new TextDecoder();
  let rest = '';
  let bytes = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    rest += dec.decode(chunk, { stream: true });
    const parts = rest.split(sep);
    rest = parts.pop()!;
    for (const l of parts) onLine(l);
  }
  expect(rest).toBe(''); // the body ends with a line break
  return bytes;
}

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.destroy();
});

describe(`streamed exports of a ${N.toLocaleString('en')}-item crawl`, () => {
  let run: RunRecord;
  const expected = Array.from({ length: N }, (_, i) => i).filter(hasItem);

  beforeAll(async () => {
    const t0 = Date.now();
    run = await seedFinishedCrawl(svc.deps.table, svc.tenantId, N);
    console.log(`seeded ${N} frontier records in ${Date.now() - t0} ms`);
  }, 300_000);

  it('NDJSON: every item once, in result order; the first bytes arrive while the reader is held after one table page', async () => {
    const watch = watchFrontierReads(svc.deps.table, run.id);
    let open!: () => void;
    watch.state.gate = new Promise<void>((r) => (open = r));
    try {
      const heap0 = process.memoryUsage().heapUsed;
      const rss0 = process.memoryUsage().rss;
      const t0 = Date.now();
      const res = await fetch(`${svc.url}/v1/runs/${run.id}/results?format=ndjson`, { headers: { authorization: `Bearer ${svc.key}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/x-ndjson');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${run.id}.ndjson"`);
      expect(res.headers.get('content-length')).toBeNull(); // chunked: the length is not known up front
      const reader = res.body!.getReader();
      const first = await reader.read();
      // Structural, not timing: the gate holds every frontier read after the first, so these
      // bytes were sent when exactly one table page had been read.
      expect(watch.state.finished).toBe(1);
      const firstLines = new TextDecoder().decode(first.value).split('\n');
      expect(JSON.parse(firstLines[0]!)).toEqual(item(0));
      open();
      let k = 0;
      let peakHeap = 0;
      const rest = new ReadableStream<Uint8Array>({
        start: (c) => c.enqueue(first.value!),
        async pull(c) {
          const n = await reader.read();
          if (n.done) c.close();
          else c.enqueue(n.value);
        },
      });
      const bytes = await eachLine(rest, '\n', (l) => {
        const got = JSON.parse(l) as ScrapeItem;
        expect(got.url).toBe(url(expected[k]!)); // in order, each once
        if (k % 5000 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
        k++;
      });
      expect(k).toBe(expected.length);
      // Every read is one table page of at most CRAWL_EXPORT_PAGE records: nothing gathers the whole crawl.
      expect(Math.max(...watch.state.limits)).toBeLessThanOrEqual(CRAWL_EXPORT_PAGE);
      expect(watch.state.finished).toBeGreaterThanOrEqual(Math.ceil(N / CRAWL_EXPORT_PAGE));
      console.log(
        `ndjson export: ${k} items, ${(bytes / 1e6).toFixed(1)} MB in ${Date.now() - t0} ms, ${watch.state.finished} table pages; ` +
          `heap +${((peakHeap - heap0) / 1e6).toFixed(1)} MB (peak sample), rss +${((process.memoryUsage().rss - rss0) / 1e6).toFixed(1)} MB`,
      );
    } finally {
      watch.restore();
    }
  }, 300_000);

  it('reads no page ahead of its consumer: after k chunks taken, at most k + 1 table pages were read', async () => {
    const watch = watchFrontierReads(svc.deps.table, run.id);
    try {
      const it = exportRunItems(svc.deps, run, 'ndjson');
      let taken = 0;
      let items = 0;
      for (let n = await it.next(); !n.done; n = await it.next()) {
        taken++;
        items += n.value.split('\n').length - 1;
        expect(watch.state.started).toBeLessThanOrEqual(taken + 1);
        if (taken === 3) break;
      }
      await it.return(undefined);
      expect(items).toBe(expected.filter((i) => i < 3 * CRAWL_EXPORT_PAGE).length);
      expect(watch.state.started).toBe(3);
    } finally {
      watch.restore();
    }
  });

  it('CSV: the header first (columns from the first page), then every item once, in order', async () => {
    const t0 = Date.now();
    const res = await fetch(`${svc.url}/v1/runs/${run.id}/results?format=csv`, { headers: { authorization: `Bearer ${svc.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${run.id}.csv"`);
    let k = -1;
    await eachLine(res.body!, '\r\n', (l) => {
      if (k === -1) expect(l).toBe('url,fetched_at,status_code,title,n');
      else {
        const i = expected[k]!;
        expect(l).toBe(`${url(i)},2026-11-23T10:00:00.000Z,200,"Page ${i}, part ${i % 7}",${i}`);
      }
      k++;
    });
    expect(k).toBe(expected.length);
    console.log(`csv export: ${k} rows in ${Date.now() - t0} ms`);
  }, 300_000);
});

describe('streamed exports of item pages and errors before the first byte', () => {
  it('exports a run stored as item pages (S3 objects) in order; CSV columns are the first page\'s fields', async () => {
    const run = runRecord(svc.tenantId, { scraper_id: 'css-extract', crawl: false, attempt: 0 });
    const writer = new ItemWriter(svc.deps.blobs, svc.tenantId, run.id, run.attempt, async () => undefined);
    const M = 2_050;
    // A field that first appears after the first page is not a CSV column (NDJSON carries it).
    for (let i = 0; i < M; i++) await writer.add({ ...item(i), data: i < 150 ? item(i).data : { ...item(i).data, late: 'x' } });
    await writer.flush();
    await svc.deps.table.put({ ...keys.record(svc.tenantId, 'RUN', run.id), ...run, item_pages: Math.ceil(M / 100) });
    const nd = await svc.call(`/v1/runs/${run.id}/results?format=ndjson`);
    expect(nd.status).toBe(200);
    const lines = nd.text.trimEnd().split('\n').map((l) => JSON.parse(l) as ScrapeItem);
    expect(lines.map((l) => l.url)).toEqual(Array.from({ length: M }, (_, i) => url(i)));
    expect(lines[M - 1]!.data.late).toBe('x');
    const csv = await svc.call(`/v1/runs/${run.id}/results?format=csv`);
    const rows = csv.text.split('\r\n');
    expect(rows[0]).toBe('url,fetched_at,status_code,title,n');
    expect(rows).toHaveLength(M + 2); // header, M rows, '' after the last line break
    expect(rows[M]).toBe(`${url(M - 1)},2026-11-23T10:00:00.000Z,200,"Page ${M - 1}, part ${(M - 1) % 7}",${M - 1}`);
  });

  it('an empty run exports an empty NDJSON body and a CSV header alone', async () => {
    const run = runRecord(svc.tenantId, { crawl: false, attempt: 0 });
    await svc.deps.table.put({ ...keys.record(svc.tenantId, 'RUN', run.id), ...run });
    expect((await svc.call(`/v1/runs/${run.id}/results?format=ndjson`)).text).toBe('');
    expect((await svc.call(`/v1/runs/${run.id}/results?format=csv`)).text).toBe('url,fetched_at,status_code\r\n');
  });

  it('answers 401, 404 and 400 as {code, message} JSON with their status, not as a stream', async () => {
    const missing = await svc.call(`/v1/runs/run_${'0'.repeat(26)}/results?format=csv`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/json');
    expect(missing.body).toMatchObject({ code: 'not_found' });
    const bad = await svc.call(`/v1/runs/run_${'0'.repeat(26)}/results?format=xml`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_request' });
    const anon = await svc.call(`/v1/runs/run_${'0'.repeat(26)}/results?format=ndjson`, { key: null });
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toContain('Bearer');
    expect(anon.body).toMatchObject({ code: 'unauthorized' });
  });

  it('HEAD answers with the export headers and no body', async () => {
    const run = runRecord(svc.tenantId, { crawl: false, attempt: 0, item_pages: 0 });
    await svc.deps.table.put({ ...keys.record(svc.tenantId, 'RUN', run.id), ...run });
    const r = await fetch(`${svc.url}/v1/runs/${run.id}/results?format=csv`, { method: 'HEAD', headers: { authorization: `Bearer ${svc.key}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="${run.id}.csv"`);
    expect(await r.text()).toBe('');
  });

  it('a store failure on the first page is a 500 JSON error, not a 200 with a broken body', async () => {
    const run = runRecord(svc.tenantId, {});
    await svc.deps.table.put({ ...keys.record(svc.tenantId, 'RUN', run.id), ...run });
    const table = svc.deps.table;
    const original = table.query.bind(table);
    table.query = (async (spec: QuerySpec) => {
      if (spec.pk.includes(`#CRAWL#${run.id}#`)) throw new Error('table unavailable');
      return original(spec);
    }) as Table['query'];
    try {
      const r = await svc.call(`/v1/runs/${run.id}/results?format=ndjson`);
      expect(r.status).toBe(500);
      expect(r.body).toMatchObject({ code: 'internal_error' });
    } finally {
      table.query = original;
    }
  });
});
