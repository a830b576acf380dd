import type { AttributeValue, DynamoDBClient, WriteRequest } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { ConditionFailedError, ItemTooLargeError } from '../../core/errors.js';
import { assertItemSize, MAX_ITEM_BYTES } from './item-size.js';
import { lazy } from './lazy.js';
import { dynamoSdk } from './sdk-modules.js';
import { withoutSdkLogging } from './sdk-options.js';
import type { Condition, Item, Key, QueryPage, QuerySpec, Table, UpdateSpec } from '../../ports/table.js';

/** Plain values to DynamoDB attribute values, as lib-dynamodb's document client does it (undefined attributes left out). */
const toAttrs = (v: object): Record<string, AttributeValue> => marshall(v as Record<string, unknown>, { removeUndefinedValues: true });
const toAttrsIfAny = (v: Record<string, unknown> | undefined) => (v ? toAttrs(v) : undefined);
const fromAttrs = <T>(v: Record<string, AttributeValue> | undefined): T | undefined => (v ? (unmarshall(v) as T) : undefined);

/** The SDK's commands, by `require` (sdk-modules.ts): this module is loaded with the composition root, which needs them. */
const {
  ConditionalCheckFailedException, GetItemCommand, PutItemCommand, UpdateItemCommand, DeleteItemCommand, QueryCommand, BatchWriteItemCommand, BatchGetItemCommand,
} = dynamoSdk();

/**
 * The cursor codec (its payload schemas are zod's) loads with the first query, not when the
 * function starts: an API function that answers without a query (a 401) never builds them.
 */
const loadCursorCodec = lazy(() => import('../../core/cursor.js'));

/**
 * The Table port over the DynamoDB API: AWS DynamoDB in the cloud, dynalite locally.
 *
 * Cold start: the low-level client with util-dynamodb's marshall/unmarshall (bundled, 10 KiB), not
 * lib-dynamodb's document client: every function creates a table, and loading lib-dynamodb (a
 * separate external package that pulls @smithy/core's whole index) cost every API function
 * ~20 ms of init for the same conversion.
 */
export class DynamoTable implements Table {
  constructor(private readonly tableName: string, private readonly client: DynamoDBClient) {
    withoutSdkLogging(client);
  }

  async get<T extends Item>(key: Key, opts?: { consistent?: boolean }): Promise<T | undefined> {
    const r = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: toAttrs(key), ConsistentRead: opts?.consistent }));
    return fromAttrs<T>(r.Item);
  }

  async put(item: Item, opts?: { condition?: Condition }): Promise<void> {
    assertItemSize(item);
    await guard(() =>
      this.client.send(new PutItemCommand({ TableName: this.tableName, Item: toAttrs(item), ...conditionParams(opts?.condition) })),
    );
  }

  async update<T extends Item>(key: Key, spec: UpdateSpec): Promise<T> {
    // What is set alone must fit; DynamoDB itself checks the item as updated (mapped in guard).
    assertItemSize({ ...key, ...spec.set, ...spec.setIfAbsent, ...spec.append });
    const names: Record<string, string> = { ...spec.condition?.names };
    const values: Record<string, unknown> = { ...spec.condition?.values };
    const sets: string[] = [];
    const adds: string[] = [];
    let n = 0;
    const name = (attr: string) => {
      const k = `#u${n++}`;
      names[k] = attr;
      return k;
    };
    const value = (v: unknown) => {
      const k = `:u${n++}`;
      values[k] = v;
      return k;
    };
    for (const [a, v] of Object.entries(spec.set ?? {})) if (v !== undefined) sets.push(`${name(a)} = ${value(v)}`);
    for (const [a, v] of Object.entries(spec.setIfAbsent ?? {})) {
      const nm = name(a);
      sets.push(`${nm} = if_not_exists(${nm}, ${value(v)})`);
    }
    for (const [a, v] of Object.entries(spec.append ?? {})) {
      const nm = name(a);
      sets.push(`${nm} = list_append(if_not_exists(${nm}, ${value([])}), ${value(v)})`);
    }
    for (const [a, v] of Object.entries(spec.add ?? {})) adds.push(`${name(a)} ${value(v)}`);
    const removes = (spec.remove ?? []).map(name);
    const expr = [
      sets.length ? `SET ${sets.join(', ')}` : '',
      adds.length ? `ADD ${adds.join(', ')}` : '',
      removes.length ? `REMOVE ${removes.join(', ')}` : '',
    ].filter(Boolean).join(' ');
    const r = await guard(() =>
      this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: toAttrs(key),
          UpdateExpression: expr,
          ConditionExpression: spec.condition?.expression,
          ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
          ExpressionAttributeValues: Object.keys(values).length ? toAttrs(values) : undefined,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return fromAttrs<T>(r.Attributes) as T;
  }

  async delete<T extends Item>(key: Key, opts?: { condition?: Condition }): Promise<T | undefined> {
    const r = await guard(() =>
      this.client.send(
        new DeleteItemCommand({ TableName: this.tableName, Key: toAttrs(key), ReturnValues: 'ALL_OLD', ...conditionParams(opts?.condition) }),
      ),
    );
    return fromAttrs<T>(r.Attributes);
  }

  async query<T extends Item>(q: QuerySpec): Promise<QueryPage<T>> {
    const { decodeTableCursor, encodeTableCursor } = await loadCursorCodec();
    const pkName = q.index ? `${q.index}pk` : 'pk';
    const skName = q.index ? `${q.index}sk` : 'sk';
    const names: Record<string, string> = { '#pk': pkName };
    const values: Record<string, unknown> = { ':pk': q.pk };
    let expr = '#pk = :pk';
    if (q.skBeginsWith !== undefined) {
      names['#sk'] = skName;
      values[':skp'] = q.skBeginsWith;
      expr += ' AND begins_with(#sk, :skp)';
    } else if (q.skBetween) {
      names['#sk'] = skName;
      values[':a'] = q.skBetween[0];
      values[':b'] = q.skBetween[1];
      expr += ' AND #sk BETWEEN :a AND :b';
    } else if (q.skGreaterThan !== undefined) {
      names['#sk'] = skName;
      values[':gt'] = q.skGreaterThan;
      expr += ' AND #sk > :gt';
    }
    const r = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: q.index,
        KeyConditionExpression: expr,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: toAttrs(values),
        Limit: q.limit,
        ScanIndexForward: !q.descending,
        ConsistentRead: q.index ? undefined : q.consistent,
        ExclusiveStartKey: toAttrsIfAny(q.cursor ? decodeTableCursor(q, q.cursor) : undefined),
      }),
    );
    const last = fromAttrs<Record<string, unknown>>(r.LastEvaluatedKey);
    return { items: (r.Items ?? []).map((i) => unmarshall(i) as T), cursor: last ? encodeTableCursor(q, last) : null };
  }

  async batchPut(items: Item[]): Promise<void> {
    items.forEach(assertItemSize);
    for (let i = 0; i < items.length; i += 25) {
      let pending: WriteRequest[] = items.slice(i, i + 25).map((item) => ({ PutRequest: { Item: toAttrs(item) } }));
      for (let attempt = 0; pending.length && attempt < 8; attempt++) {
        const r = await this.client.send(new BatchWriteItemCommand({ RequestItems: { [this.tableName]: pending } }));
        pending = r.UnprocessedItems?.[this.tableName] ?? [];
        if (pending.length) await new Promise((res) => setTimeout(res, 20 * 2 ** attempt));
      }
      if (pending.length) throw new Error(`batchPut left ${pending.length} items unprocessed`);
    }
  }

  async batchGet<T extends Item>(keys: Key[], opts?: { consistent?: boolean }): Promise<T[]> {
    const out: T[] = [];
    // BatchGetItem refuses duplicate keys in one request.
    const unique = [...new Map(keys.map((k) => [`${k.pk}\u0000${k.sk}`, k])).values()];
    for (let i = 0; i < unique.length; i += 100) {
      let pending: Record<string, AttributeValue>[] = unique.slice(i, i + 100).map((k) => toAttrs({ pk: k.pk, sk: k.sk }));
      for (let attempt = 0; pending.length && attempt < 8; attempt++) {
        const r = await this.client.send(new BatchGetItemCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: opts?.consistent } } }));
        for (const item of r.Responses?.[this.tableName] ?? []) out.push(unmarshall(item) as T);
        pending = r.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
        if (pending.length) await new Promise((res) => setTimeout(res, 20 * 2 ** attempt));
      }
      if (pending.length) throw new Error(`batchGet left ${pending.length} keys unprocessed`);
    }
    return out;
  }
}

const conditionParams = (c?: Condition) =>
  c
    ? {
        ConditionExpression: c.expression,
        ExpressionAttributeNames: c.names && Object.keys(c.names).length ? c.names : undefined,
        ExpressionAttributeValues: c.values && Object.keys(c.values).length ? toAttrs(c.values) : undefined,
      }
    : {};

/** SDK exceptions become domain errors at the adapter. */
async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ConditionalCheckFailedException || (e as { name?: string }).name === 'ConditionalCheckFailedException')
      throw new ConditionFailedError();
    if ((e as { name?: string }).name === 'ValidationException' && /item size/i.test((e as Error).message))
      throw new ItemTooLargeError(MAX_ITEM_BYTES + 1, MAX_ITEM_BYTES);
    throw e;
  }
}

