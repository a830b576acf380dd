import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStores, type EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

/**
 * The embedded dynalite closes every LevelDB iterator its queries and scans open. An iterator left
 * open pins the database version it started on: LevelDB then never deletes the table files
 * compaction made obsolete, and keeps the memtables of that version in memory. A 100,000-page crawl
 * under `npm start` grew the data folder to 5 GB and the process's native memory by 1 GB this way.
 */
const req = createRequire(createRequire(createRequire(import.meta.url).resolve('dynalite')).resolve('level'));
const { AbstractLevel } = createRequire(req.resolve('classic-level'))('abstract-level') as { AbstractLevel: { prototype: Record<string, (r: unknown) => void> } };

let dir: string;
let stores: EmbeddedStores;
let table: DynamoTable;
const open = new Set<unknown>();
const originals = { attach: AbstractLevel.prototype.attachResource!, detach: AbstractLevel.prototype.detachResource! };

beforeAll(async () => {
  // Count the iterators the database has open (each attaches itself until it is closed).
  AbstractLevel.prototype.attachResource = function (this: unknown, r: unknown) {
    if (typeof (r as { next?: unknown }).next === 'function') open.add(r);
    return originals.attach.call(this, r);
  };
  AbstractLevel.prototype.detachResource = function (this: unknown, r: unknown) {
    open.delete(r);
    return originals.detach.call(this, r);
  };
  dir = mkdtempSync(join(tmpdir(), 'gleaner-dynalite-'));
  stores = await startEmbeddedStores({ dataDir: dir, dynamoPort: 0, s3Port: 0, table: 'test', buckets: ['test-results'] });
  table = new DynamoTable('test', stores.dynamo);
});

afterAll(async () => {
  await stores?.close();
  AbstractLevel.prototype.attachResource = originals.attach;
  AbstractLevel.prototype.detachResource = originals.detach;
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded dynalite', () => {
  it('closes the iterators of queries read to the end, queries cut short by Limit, and index queries', async () => {
    // Prepare
    for (let i = 0; i < 30; i++) await table.put({ pk: 'P#1', sk: `S#${String(i).padStart(3, '0')}`, gsi1pk: 'G#1', gsi1sk: `S#${i}`, n: i });
    const before = open.size;
    // Act
    for (let i = 0; i < 20; i++) {
      await table.query({ pk: 'P#1' });
      await table.query({ pk: 'P#1', limit: 1 });
      await table.query({ pk: 'G#1', index: 'gsi1', limit: 2 });
    }
    // Closing is asynchronous (after the response): wait for it, up to 10 s on a loaded machine.
    for (let i = 0; i < 100 && open.size > 0; i++) await new Promise((r) => setTimeout(r, 100));
    // Assess
    expect(before).toBe(0);
    expect(open.size).toBe(0);
  });
});
