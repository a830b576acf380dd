import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { ConditionFailedError, ItemTooLargeError } from '../../../functions/core/errors.js';
import { LocalDynamoClient } from '../../../functions/adapters/local/local-dynamo-client.js';
import { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';
import { memoryStores, sdkTable } from './stores.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

// The local service's DynamoDB client sends the Table adapter's item calls as plain DynamoDB
// JSON requests (no SDK middleware per call), and answers as the SDK would: same items, binary
// values as bytes, errors by the SDK's names.
let stores: EmbeddedStores;
let client: LocalDynamoClient;
let table: DynamoTable;
let sdkSteps = 0;
beforeAll(async () => {
  ({ stores } = await memoryStores());
  client = new LocalDynamoClient({ endpoint: stores.dynamoEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  // Counts the calls that go through the SDK's middleware stack.
  client.middlewareStack.add((next) => async (args) => (sdkSteps++, next(args)), { step: 'initialize', name: 'countSdkCalls' });
  table = new DynamoTable('test', client);
});
afterAll(async () => {
  client?.destroy();
  await stores?.close();
});

describe('LocalDynamoClient', () => {
  it('sends item calls without the SDK stack, and other commands through it', async () => {
    await table.put({ pk: 'TEN#l', sk: 'A', v: 1 });
    await table.get({ pk: 'TEN#l', sk: 'A' });
    await table.query({ pk: 'TEN#l' });
    await table.update({ pk: 'TEN#l', sk: 'A' }, { add: { v: 1 } });
    await table.batchPut([{ pk: 'TEN#l', sk: 'B' }]);
    await table.batchGet([{ pk: 'TEN#l', sk: 'B' }]);
    await table.delete({ pk: 'TEN#l', sk: 'B' });
    expect(sdkSteps).toBe(0);
    const d = await client.send(new DescribeTableCommand({ TableName: 'test' }));
    expect(d.Table?.TableName).toBe('test');
    expect(sdkSteps).toBe(1);
  });

  it('reads back what the SDK client wrote and the other way round, binary values as bytes', async () => {
    const viaSdk = sdkTable(stores);
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    await viaSdk.put({ pk: 'TEN#l', sk: 'BIN', b: bytes, nums: new Set([1, 2]), m: { B: 'not binary', n: 1.5 } });
    const got = await table.get({ pk: 'TEN#l', sk: 'BIN' });
    expect(got?.b).toEqual(bytes);
    expect(got?.nums).toEqual(new Set([1, 2]));
    expect(got?.m).toEqual({ B: 'not binary', n: 1.5 });
    await table.put({ pk: 'TEN#l', sk: 'BIN2', b: bytes });
    expect((await viaSdk.get({ pk: 'TEN#l', sk: 'BIN2' }))?.b).toEqual(bytes);
  });

  it('fails as the SDK client does: conditions, oversize items and validation errors by name', async () => {
    await table.put({ pk: 'TEN#l', sk: 'C' });
    await expect(table.put({ pk: 'TEN#l', sk: 'C' }, { condition: { expression: 'attribute_not_exists(pk)' } })).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(table.update({ pk: 'TEN#l', sk: 'C' }, { set: { big: 'x'.repeat(300_000) }, add: { more: 1 }, condition: { expression: 'attribute_exists(pk)' } }))
      .resolves.toBeDefined();
    await expect(table.update({ pk: 'TEN#l', sk: 'C' }, { set: { big2: 'y'.repeat(300_000) } })).rejects.toBeInstanceOf(ItemTooLargeError);
    await expect(client.send(new PutItemCommand({ TableName: 'test', Item: { pk: { S: 'only a partition key' } } }))).rejects.toMatchObject({ name: 'ValidationException' });
  });
});
