import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStores, type EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

/**
 * The embedded dynalite writes the items and index entries of one turn of its event loop as one
 * LevelDB batch (dynalite-batched-writes.ts) instead of a put or del each, and answers exactly as
 * before: a batch write's items and their index entries, overwrites that move index entries,
 * deletes, and conditional writes against what was written.
 */
const req = createRequire(createRequire(createRequire(import.meta.url).resolve('dynalite')).resolve('level'));
const { ClassicLevel } = req('classic-level') as { ClassicLevel: { prototype: Record<string, (...a: unknown[]) => unknown> } };

let dir: string;
let stores: EmbeddedStores;
let table: DynamoTable;
const calls = { put: 0, del: 0, batch: 0, batchOps: 0 };
const originals = { put: ClassicLevel.prototype._put!, del: ClassicLevel.prototype._del!, batch: ClassicLevel.prototype._batch! };

beforeAll(async () => {
  // Count LevelDB's writes by kind, beneath dynalite.
  ClassicLevel.prototype._put = function (this: unknown, ...a: unknown[]) {
    calls.put++;
    return originals.put.apply(this, a);
  };
  ClassicLevel.prototype._del = function (this: unknown, ...a: unknown[]) {
    calls.del++;
    return originals.del.apply(this, a);
  };
  ClassicLevel.prototype._batch = function (this: unknown, ...a: unknown[]) {
    calls.batch++;
    calls.batchOps += (a[0] as unknown[]).length;
    return originals.batch.apply(this, a);
  };
  dir = mkdtempSync(join(tmpdir(), 'gleaner-dynalite-batch-'));
  stores = await startEmbeddedStores({ dataDir: dir, dynamoPort: 0, s3Port: 0, table: 'test', buckets: ['test-results'] });
  table = new DynamoTable('test', stores.dynamo);
});

afterAll(async () => {
  Object.assign(ClassicLevel.prototype, { _put: originals.put, _del: originals.del, _batch: originals.batch });
  await stores?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('dynalite writes in LevelDB batches', () => {
  it('writes a batch write’s items and index entries together, with the same answers', async () => {
    const before = { ...calls };
    const items = Array.from({ length: 25 }, (_, i) => ({ pk: 'B', sk: `i${String(i).padStart(2, '0')}`, v: i, gsi1pk: 'G', gsi1sk: `a${String(i).padStart(2, '0')}` }));
    await table.batchPut(items);
    expect(calls.put - before.put).toBe(0);
    // 25 items and 25 index entries, in a few batches rather than 50 writes.
    expect(calls.batchOps - before.batchOps).toBe(50);
    expect(calls.batch - before.batch).toBeLessThan(10);
    expect((await table.query({ pk: 'B' })).items.map((i) => i.v)).toEqual(items.map((i) => i.v));
    // Overwrites move their index entries (a del and a put each) and are seen at once.
    await table.batchPut(items.slice(0, 5).map((i) => ({ ...i, gsi1sk: `z${i.sk}` })));
    const byIndex = (await table.query({ index: 'gsi1', pk: 'G' })).items.map((i) => i.gsi1sk);
    expect(byIndex.filter((k) => String(k).startsWith('z'))).toHaveLength(5);
    expect(byIndex).toHaveLength(25);
    expect(calls.put - before.put + calls.del - before.del).toBe(0);
  });

  it('keeps conditional writes, updates and deletes right', async () => {
    await table.put({ pk: 'C', sk: '1', v: 1 }, { condition: { expression: 'attribute_not_exists(pk)' } });
    await expect(table.put({ pk: 'C', sk: '1', v: 2 }, { condition: { expression: 'attribute_not_exists(pk)' } })).rejects.toMatchObject({ name: 'ConditionFailedError' });
    expect(await table.update({ pk: 'C', sk: '1' }, { add: { v: 5 } })).toMatchObject({ v: 6 });
    // Concurrent increments of one item: each sees the one before (dynalite's item lock, then the write).
    await Promise.all(Array.from({ length: 10 }, () => table.update({ pk: 'C', sk: '1' }, { add: { v: 1 } })));
    expect(await table.get({ pk: 'C', sk: '1' })).toMatchObject({ v: 16 });
    expect(await table.delete({ pk: 'C', sk: '1' })).toMatchObject({ v: 16 });
    expect(await table.get({ pk: 'C', sk: '1' })).toBeUndefined();
  });
});
