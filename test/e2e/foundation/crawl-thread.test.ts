import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import type { TestService } from '../../support/local-service.js';
import type { FixtureSite } from '../../fixtures/site/server.js';
import { CrawlThread } from '../../../functions/local/crawl-thread.js';
import { startVerifiedCrawl } from '../../support/verified-host.js';

// The local server runs crawl slices on a worker thread of its own (functions/local/crawl-thread.ts),
// so a crawl does not hold up the API on the main thread; the thread's sends, retries and items
// still go through the main thread's queue and the same stores.
const PAGES = 300;
let svc: TestService;
let site: FixtureSite;
beforeAll(async () => {
  // A verified host without the polite spacing: the crawl is quick enough to be killed mid-way.
  ({ svc, site } = await startVerifiedCrawl(PAGES));
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
});

async function crawl(n: number, during?: (runId: string) => Promise<void>) {
  const c = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'site-crawl', input: { start_url: `${site.baseUrl}/graph/0`, max_pages: n, max_depth: 20, concurrency: 4, engine: 'http', sitemap: 'skip' } } });
  expect(c.status, c.text).toBe(201);
  await during?.(c.body.id);
  let run = c.body;
  while (run.status === 'queued' || run.status === 'running') run = (await svc.call(`/v1/runs/${run.id}?wait=10`)).body;
  const items = (await svc.call(`/v1/runs/${run.id}/results?format=ndjson`)).text.trim().split('\n').map((l) => JSON.parse(l).url as string);
  return { run, items };
}

/** What the crawl's records say when a crawl kept fewer items than it should (the assertion's message). */
async function whyShort(run: { id: string; progress?: unknown; stop_reason?: unknown }, items: string[], want: number): Promise<string> {
  if (items.length === want) return '';
  const recs = [];
  let cursor: string | null | undefined;
  do {
    const page = await svc.deps.table.query({ pk: `TEN#${svc.tenantId}#CRAWL#${run.id}#a1`, limit: 500, cursor: cursor ?? undefined });
    recs.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  const ords = recs.filter((r) => r.sk.startsWith('ORD#'));
  const blobs = new Map<string, unknown[] | null>();
  const unreadable = [];
  for (const o of ords) {
    if (o.state !== 'done') unreadable.push({ ord: o.ord, state: o.state, error: o.error });
    else if (!o.item && typeof o.item_blob === 'string') {
      if (!blobs.has(o.item_blob)) {
        const raw = await svc.deps.blobs.get('results', o.item_blob);
        blobs.set(o.item_blob, raw ? (JSON.parse(Buffer.from(raw).toString('utf8')) as unknown[]) : null);
      }
      if (!blobs.get(o.item_blob)?.[Number(o.item_at)]) unreadable.push({ ord: o.ord, blob: o.item_blob, at: o.item_at });
    }
  }
  const again = (await svc.call(`/v1/runs/${run.id}/results?format=ndjson`)).text.trim().split('\n').length;
  return JSON.stringify({ progress: run.progress, reason: run.stop_reason, records: ords.length, unreadable, open: recs.filter((r) => /^(SLICE|LEDGER)#/.test(r.sk)).map((r) => r.sk), again });
}

describe('crawl thread', () => {
  it('runs a crawl on a thread of its own; its pages, sends and completion reach the main thread', async () => {
    const t = svc.crawlThread!;
    expect(t).toBeDefined();
    const before = t.stats.batches;
    const { run, items } = await crawl(120);
    expect(run.status).toBe('succeeded');
    expect(items, await whyShort(run, items, 120)).toHaveLength(120);
    expect(new Set(items).size).toBe(120);
    // Slices went to the thread, and the slices it queued came back to it through the main queue.
    expect(t.stats.batches - before).toBeGreaterThan(1);
  }, 120_000);

  it('a thread that dies mid-crawl is replaced; its slices run again and every page is kept once', async () => {
    const t = svc.crawlThread!;
    const starts = t.stats.starts;
    const { run, items } = await crawl(PAGES, async (id) => {
      for (;;) {
        const r = (await svc.call(`/v1/runs/${id}`)).body;
        if (r.progress.pages_done >= 40 || !['queued', 'running'].includes(r.status)) break;
        await new Promise((res) => setTimeout(res, 100));
      }
      await t.kill();
    });
    expect(run.status).toBe('succeeded');
    expect(items, await whyShort(run, items, PAGES)).toHaveLength(PAGES);
    expect(new Set(items).size).toBe(PAGES);
    expect(t.stats.starts).toBeGreaterThan(starts);
  }, 120_000);

  it('runs the slices on the main thread when no thread can start', async () => {
    const seen: SQSEvent[] = [];
    const inline = { process: async (event: SQSEvent) => (seen.push(event), { batchItemFailures: [] }) };
    const broken = new CrawlThread({ config: svc.deps.config, dynamoEndpoint: svc.stores.dynamoEndpoint, s3Endpoint: svc.stores.s3Endpoint }, svc.queue, inline, new URL('./no-such-entry.ts', import.meta.url));
    const event = { Records: [] } as SQSEvent;
    await expect(broken.process(event, { getRemainingTimeInMillis: () => 1000 }, svc.queue)).resolves.toEqual({ batchItemFailures: [] });
    await expect(broken.process(event, { getRemainingTimeInMillis: () => 1000 }, svc.queue)).resolves.toEqual({ batchItemFailures: [] });
    expect(seen).toHaveLength(2);
    expect(broken.stats.starts).toBe(1);
    await broken.close();
  }, 60_000);

  it('a batch that ends two threads comes back from the queue in seconds, not after its visibility timeout', async () => {
    const retries: Array<[string, string, number]> = [];
    const receiver = { retryAfter: async (q: string, r: { messageId: string }, seconds: number) => void retries.push([q, r.messageId, seconds]), deadLetter: async () => undefined };
    const inline = { process: async () => ({ batchItemFailures: [] }) };
    const crashing = new CrawlThread({ config: svc.deps.config, dynamoEndpoint: svc.stores.dynamoEndpoint, s3Endpoint: svc.stores.s3Endpoint }, svc.queue, inline, new URL('../../fixtures/crawl-thread/crashing-entry.ts', import.meta.url));
    const record = { messageId: 'm1', receiptHandle: 'm1', body: '{}', attributes: { ApproximateReceiveCount: '1' } };
    const event = { Records: [record] } as unknown as SQSEvent;
    await expect(crashing.process(event, { getRemainingTimeInMillis: () => 60_000 }, receiver)).rejects.toThrow(/exited/);
    expect(crashing.stats.starts).toBe(2); // run again once on a new thread, then given up
    expect(retries).toEqual([['runs', 'm1', 3]]);
    await crashing.close();
  }, 60_000);

  it('starts the thread on the first batch and ends it once idle; the next batch starts a new one', async () => {
    // Memory at rest (issue 31): no thread until a crawl slice arrives, none once crawls are over.
    const inline = { process: async () => ({ batchItemFailures: [{ itemIdentifier: 'ran-inline' }] }) };
    const t = new CrawlThread({ config: svc.deps.config, dynamoEndpoint: svc.stores.dynamoEndpoint, s3Endpoint: svc.stores.s3Endpoint }, svc.queue, inline, undefined, 'runs', 300);
    const event = { Records: [] } as unknown as SQSEvent;
    const until = async (ok: () => boolean) => {
      while (!ok()) await new Promise((r) => setTimeout(r, 50));
    };
    expect(t.running).toBe(false);
    expect(t.stats.starts).toBe(0);
    // The batch ran on a thread (the inline worker would have answered a failure).
    await expect(t.process(event, { getRemainingTimeInMillis: () => 60_000 }, svc.queue)).resolves.toEqual({ batchItemFailures: [] });
    expect(t.stats).toMatchObject({ starts: 1, batches: 1, retired: 0 });
    await until(() => t.stats.retired === 1);
    expect(t.running).toBe(false);
    await expect(t.process(event, { getRemainingTimeInMillis: () => 60_000 }, svc.queue)).resolves.toEqual({ batchItemFailures: [] });
    expect(t.stats).toMatchObject({ starts: 2, batches: 2 });
    await t.close();
    expect(t.running).toBe(false);
  }, 60_000);
});
