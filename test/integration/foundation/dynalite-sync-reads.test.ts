import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStores, type EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

/**
 * The embedded dynalite reads items from LevelDB with getSync (dynalite-sync-reads.ts) instead of
 * a thread-pool round trip per read, and answers exactly as before: gets, conditional puts and
 * updates, batch writes (which read each old item for its index entries) and queries on an index.
 */
const req = createRequire(createRequire(createRequire(import.meta.url).resolve('dynalite')).resolve('level'));
const { ClassicLevel } = req('classic-level') as { ClassicLevel: { prototype: Record<string, (...a: unknown[]) => unknown> } };

let dir: string;
let stores: EmbeddedStores;
let table: DynamoTable;
const calls = { async: 0, sync: 0 };
const originals = { get: ClassicLevel.prototype._get!, getSync: ClassicLevel.prototype._getSync! };

beforeAll(async () => {
  // Count LevelDB's reads by kind, beneath dynalite.
  ClassicLevel.prototype._get = function (this: unknown, ...a: unknown[]) {
    calls.async++;
    return originals.get.apply(this, a);
  };
  ClassicLevel.prototype._getSync = function (this: unknown, ...a: unknown[]) {
    calls.sync++;
    return originals.getSync.apply(this, a);
  };
  dir = mkdtempSync(join(tmpdir(), 'gleaner-dynalite-sync-'));
  stores = await startEmbeddedStores({ dataDir: dir, dynamoPort: 0, s3Port: 0, table: 'test', buckets: ['test-results'] });
  table = new DynamoTable('test', stores.dynamo);
});

afterAll(async () => {
  ClassicLevel.prototype._get = originals.get;
  ClassicLevel.prototype._getSync = originals.getSync;
  await stores?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('dynalite reads with getSync', () => {
  it('reads items without a thread-pool round trip, with the same answers', async () => {
    const before = { ...calls };
    await table.put({ pk: 'P', sk: '1', v: 1, gsi1pk: 'G', gsi1sk: '1' });
    // A put on an item that exists, with a condition that holds only for a new one.
    await expect(table.put({ pk: 'P', sk: '1', v: 2 }, { condition: { expression: 'attribute_not_exists(pk)' } })).rejects.toMatchObject({ name: 'ConditionFailedError' });
    expect(await table.get({ pk: 'P', sk: '1' })).toMatchObject({ v: 1 });
    expect(await table.get({ pk: 'P', sk: 'missing' })).toBeUndefined();
    const updated = await table.update({ pk: 'P', sk: '1' }, { set: { v: 3 }, add: { n: 2 } });
    expect(updated).toMatchObject({ v: 3, n: 2 });
    // Overwrites move index entries: the old item is read for them.
    await table.batchPut([{ pk: 'P', sk: '1', v: 4, gsi1pk: 'G', gsi1sk: '2' }, { pk: 'P', sk: '2', v: 5, gsi1pk: 'G', gsi1sk: '3' }]);
    expect((await table.query({ index: 'gsi1', pk: 'G' })).items.map((i) => i.v)).toEqual([4, 5]);
    expect(calls.sync - before.sync).toBeGreaterThanOrEqual(5);
    expect(calls.async - before.async).toBe(0);
  });
});
