import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStores } from '../foundation/stores.js';
import { S3Blobs } from '../../../functions/adapters/aws/s3-blobs.js';
import { RawLogWriter, readRunLog, sweepRawLogs } from '../../../functions/core/runs/raw-log.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

let table: DynamoTable;
let stores: EmbeddedStores;
let blobs: S3Blobs;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
  blobs = new S3Blobs(stores.s3, { results: 'test-results', raw: 'test-raw' });
});
afterAll(async () => stores?.close());

const entry = (url: string) => ({ ts: new Date().toISOString(), url, status: 200, bytes: 10, timing_ms: 5, engine: 'http' as const, decision: 'fetched' as const });

describe('raw scrape logs', () => {
  it('are written per run attempt, read back in order, and deleted after 90 days by the sweeper', async () => {
    const w = new RawLogWriter(table, blobs, 'ten_a', 'run_1', 1);
    for (let i = 0; i < 3; i++) w.add(entry(`https://example.com/${i}`));
    await w.flush();
    const old = new RawLogWriter(table, blobs, 'ten_a', 'run_1', 2);
    old.add(entry('https://example.com/retry'));
    await old.flush();
    expect((await readRunLog(table, blobs, 'ten_a', 'run_1', 1)).map((e) => e.url)).toEqual(['https://example.com/0', 'https://example.com/1', 'https://example.com/2']);

    expect(await sweepRawLogs(table, blobs, new Date())).toBe(0);
    expect(await sweepRawLogs(table, blobs, new Date(Date.now() + 91 * 86400_000))).toBe(2);
    expect(await readRunLog(table, blobs, 'ten_a', 'run_1', 1)).toEqual([]);
    expect((await table.query({ pk: 'TEN#ten_a', skBeginsWith: 'RAWLOG#' })).items).toHaveLength(0);
  });
});
