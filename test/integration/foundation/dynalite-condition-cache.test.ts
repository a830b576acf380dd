import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStores, type EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

/**
 * The embedded dynalite parses a condition expression without attribute names or values once
 * (dynalite-condition-cache.ts), and every conditional call still answers as before: claims
 * (`attribute_not_exists(...)`) won and lost, `attribute_exists` on a missing item, conditions
 * with values (parsed each time), a malformed condition (its error each time).
 */
type Parse = (input: string, options: unknown) => unknown;
const parser = createRequire(createRequire(import.meta.url).resolve('dynalite'))('./db/conditionParser') as { uncachedParse?: Parse };
let stores: EmbeddedStores;
let table: DynamoTable;
const parsed: string[] = [];
let uncached: Parse;

beforeAll(async () => {
  stores = await startEmbeddedStores({ dynamoPort: 0, s3Port: 0, table: 'test', buckets: ['test-results'] });
  table = new DynamoTable('test', stores.dynamo);
  // Count the parser's own parses, beneath the cache.
  uncached = parser.uncachedParse!;
  parser.uncachedParse = function (this: unknown, input: string, options: unknown) {
    parsed.push(input);
    return uncached.call(this, input, options);
  };
});
afterAll(async () => {
  if (uncached) parser.uncachedParse = uncached;
  await stores?.close();
});

// An expression no other test uses, so its first parse is this file's (the cache is per process).
const CLAIM = 'attribute_not_exists(claimed_by)';
const claim = (sk: string) => table.put({ pk: 'CL', sk, claimed_by: 'x' }, { condition: { expression: CLAIM } }).then(() => true, (e: Error) => {
  if (e.name !== 'ConditionFailedError') throw e;
  return false;
});

describe('dynalite condition expression cache', () => {
  it('parses a claim’s condition once and still decides every claim', async () => {
    const before = parsed.length;
    const won = [];
    for (let i = 0; i < 20; i++) won.push(await claim(`u${i % 10}`));
    expect(won).toEqual([...Array(10).fill(true), ...Array(10).fill(false)]);
    expect(parsed.slice(before).filter((p) => p === CLAIM)).toHaveLength(1);
    // attribute_exists on an item that is not there fails, on one that is holds.
    await expect(table.put({ pk: 'CL', sk: 'none', v: 1 }, { condition: { expression: 'attribute_exists(pk)' } })).rejects.toMatchObject({ name: 'ConditionFailedError' });
    await table.put({ pk: 'CL', sk: 'u1', v: 1 }, { condition: { expression: 'attribute_exists(pk)' } });
    await table.put({ pk: 'CL', sk: 'u1', v: 2 }, { condition: { expression: 'attribute_exists(pk)' } });
    expect(await table.get({ pk: 'CL', sk: 'u1' })).toMatchObject({ v: 2 });
  });

  it('parses conditions with values each time, and reports a malformed one each time', async () => {
    const before = parsed.length;
    for (const v of [2, 3]) await table.update({ pk: 'CL', sk: 'u1' }, { set: { v: v + 1 }, condition: { expression: 'v = :v', values: { ':v': v } } });
    await expect(table.update({ pk: 'CL', sk: 'u1' }, { set: { v: 9 }, condition: { expression: 'v = :v', values: { ':v': 1 } } })).rejects.toMatchObject({ name: 'ConditionFailedError' });
    expect(parsed.slice(before).filter((p) => p === 'v = :v')).toHaveLength(3);
    for (let i = 0; i < 2; i++)
      await expect(table.put({ pk: 'CL', sk: 'bad' }, { condition: { expression: 'attribute_not_exists(pk' } })).rejects.toThrow(/ConditionExpression/);
  });
});
