import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { startEmbeddedStores, type EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

// dynalite keeps its table description in memory between writes of it (dynalite-table-cache.ts):
// item calls stop reading it from LevelDB, and creating or deleting the table is seen at once.
type Store = { db: { get: (k: string, cb?: (e: unknown, v?: unknown) => void) => unknown } };
const db = createRequire(createRequire(import.meta.url).resolve('dynalite'))('./db') as { create(o: unknown): Store };
let reads = 0;
let stores: EmbeddedStores;
let table: DynamoTable;

beforeAll(async () => {
  // Counts reads of table descriptions from LevelDB, beneath the cache: the table store reads
  // `table~<name>` keys from the store's main db. Counted there once the stores have started, so
  // whatever patched dynalite's stores before (this worker may have started stores for an earlier
  // file) the counter is below them all.
  // The wrapper stays in place, inert once it has seen its store: when this file is the first in
  // its worker to start stores, the stores' own patches wrap it (dynalite-patch.ts), and putting
  // the original `create` back would drop them for every later file in the worker (their markers
  // stay set, so they would never be applied again).
  let store: Store | undefined;
  let capturing = true;
  const create = db.create;
  db.create = function (o: unknown) {
    const s = create.call(this, o);
    if (capturing) store ??= s;
    return s;
  };
  stores = await startEmbeddedStores({ dynamoPort: 0, s3Port: 0, table: 'cached', buckets: ['c-results', 'c-raw'] });
  capturing = false;
  const main = store!.db;
  const get = main.get;
  main.get = function (k, cb) {
    if (String(k).startsWith('table~')) reads++;
    return get.call(this, k, cb);
  };
  table = new DynamoTable('cached', stores.dynamo);
});
afterAll(async () => stores?.close());

describe('dynalite table description cache', () => {
  it('serves item calls without reading the description again', async () => {
    await table.put({ pk: 'A', sk: '1' });
    const before = reads;
    await table.batchPut(Array.from({ length: 25 }, (_, i) => ({ pk: 'A', sk: `b${i}` })));
    for (let i = 0; i < 10; i++) await table.get({ pk: 'A', sk: '1' });
    await table.query({ pk: 'A' });
    expect(reads - before).toBe(0);
  });

  it('sees the table deleted and created again at once', async () => {
    await stores.dynamo.send(new DeleteTableCommand({ TableName: 'cached' }));
    await new Promise((r) => setTimeout(r, 50));
    await expect(table.get({ pk: 'A', sk: '1' })).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    await stores.dynamo.send(new CreateTableCommand({
      TableName: 'cached', BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
    }));
    await new Promise((r) => setTimeout(r, 50));
    expect(await table.get({ pk: 'A', sk: '1' })).toBeUndefined();
    await table.put({ pk: 'A', sk: '2', v: 1 });
    expect(await table.get({ pk: 'A', sk: '2' })).toMatchObject({ v: 1 });
  });
});
