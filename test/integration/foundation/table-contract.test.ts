import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConditionFailedError } from '../../../functions/core/errors.js';
import { memoryStores, sdkTable } from './stores.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

// The Table port's contract, run against the DynamoDB adapter on dynalite, over both of its
// clients: the local service's (item calls as plain DynamoDB JSON requests, local-dynamo-client.ts)
// and the AWS SDK's, which the functions use on AWS.
describe.each(['local client', 'AWS SDK client'] as const)('Table contract (DynamoDB adapter on dynalite, %s)', (client) => {
  let table: Table;
  let stores: EmbeddedStores;
  beforeAll(async () => {
    ({ table, stores } = await memoryStores());
    if (client === 'AWS SDK client') table = sdkTable(stores);
  });
  afterAll(async () => stores?.close());

  it('puts, gets and deletes; conditional put fails with ConditionFailedError', async () => {
    await table.put({ pk: 'TEN#a', sk: 'X#1', v: 1 });
    expect(await table.get({ pk: 'TEN#a', sk: 'X#1' })).toMatchObject({ v: 1 });
    await expect(table.put({ pk: 'TEN#a', sk: 'X#1', v: 2 }, { condition: { expression: 'attribute_not_exists(pk)' } })).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await table.delete({ pk: 'TEN#a', sk: 'X#1' })).toMatchObject({ v: 1 });
    expect(await table.get({ pk: 'TEN#a', sk: 'X#1' })).toBeUndefined();
  });

  it('batchGet returns the items that exist, across more than 100 keys, duplicates once', async () => {
    await table.batchPut(Array.from({ length: 120 }, (_, i) => ({ pk: 'TEN#bg', sk: `K#${i}`, v: i })));
    const keys = [...Array.from({ length: 130 }, (_, i) => ({ pk: 'TEN#bg', sk: `K#${i}` })), { pk: 'TEN#bg', sk: 'K#5' }];
    const got = await table.batchGet(keys, { consistent: true });
    expect(got.map((i) => i.v).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 120 }, (_, i) => i));
    expect(await table.batchGet([])).toEqual([]);
  });

  it('updates with set, add, setIfAbsent, remove and conditions', async () => {
    await table.put({ pk: 'TEN#a', sk: 'U#1', n: 1, gone: 'x' });
    const r = await table.update({ pk: 'TEN#a', sk: 'U#1' }, { set: { s: 'y' }, add: { n: 2 }, setIfAbsent: { first: 'a' }, remove: ['gone'] });
    expect(r).toMatchObject({ s: 'y', n: 3, first: 'a' });
    expect(r.gone).toBeUndefined();
    const r2 = await table.update({ pk: 'TEN#a', sk: 'U#1' }, { setIfAbsent: { first: 'b' } });
    expect(r2.first).toBe('a');
    await expect(table.update({ pk: 'TEN#a', sk: 'U#1' }, { set: { s: 'z' }, condition: { expression: 'n > :m', values: { ':m': 10 } } })).rejects.toBeInstanceOf(ConditionFailedError);
  });

  it('queries by prefix, in both directions, with cursors that only continue their own partition', async () => {
    await table.batchPut(Array.from({ length: 30 }, (_, i) => ({ pk: 'TEN#q', sk: `R#${String(i).padStart(2, '0')}`, i, gsi1pk: 'IDX', gsi1sk: String(100 - i).padStart(3, '0') })));
    await table.put({ pk: 'TEN#q', sk: 'S#1' });
    const p1 = await table.query({ pk: 'TEN#q', skBeginsWith: 'R#', limit: 20 });
    expect(p1.items).toHaveLength(20);
    const p2 = await table.query({ pk: 'TEN#q', skBeginsWith: 'R#', limit: 20, cursor: p1.cursor! });
    expect(p2.items.map((x) => x.i)).toEqual(Array.from({ length: 10 }, (_, i) => i + 20));
    const desc = await table.query({ pk: 'TEN#q', skBeginsWith: 'R#', limit: 2, descending: true });
    expect(desc.items.map((x) => x.i)).toEqual([29, 28]);
    const idx = await table.query({ index: 'gsi1', pk: 'IDX', limit: 3 });
    expect(idx.items.map((x) => x.i)).toEqual([29, 28, 27]);
    await expect(table.query({ pk: 'TEN#other', cursor: p1.cursor! })).rejects.toThrow(/cursor/);
  });
});
