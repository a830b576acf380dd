import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStores } from '../foundation/stores.js';
import { beginIdempotent, finishIdempotent } from '../../../functions/core/limits/idempotency.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

let table: DynamoTable;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

const T = 'ten_idem';
const at = (s: number) => new Date(Date.UTC(2026, 10, 23, 8, 0, s));
const begin = (key: string, body: string, now: Date, timeoutSeconds = 29) =>
  beginIdempotent(table, T, key, 'POST', '/v1/runs', body, now, { timeoutSeconds });

describe('Idempotency-Key claims', () => {
  it('answers 409 while the first request can still be running', async () => {
    expect(await begin('k-running', '{}', at(0))).toEqual({ kind: 'new' });
    await expect(begin('k-running', '{}', at(10))).rejects.toMatchObject({ status: 409, code: 'conflict' });
    await expect(begin('k-running', '{}', at(29))).rejects.toMatchObject({ status: 409 });
  });

  it('lets the same key run again once the function that claimed it has timed out', async () => {
    expect(await begin('k-timeout', '{"a":1}', at(0), 29)).toEqual({ kind: 'new' });
    // The handler was killed at its 29 s timeout and never finished the claim.
    expect(await begin('k-timeout', '{"a":1}', at(31), 29)).toEqual({ kind: 'new' });
    // The new claim is in flight again, with its own deadline.
    await expect(begin('k-timeout', '{"a":1}', at(40), 29)).rejects.toMatchObject({ status: 409 });
    await finishIdempotent(table, T, 'k-timeout', { status: 201, body: '{"ok":true}', headers: {} });
    expect(await begin('k-timeout', '{"a":1}', at(45), 29)).toMatchObject({ kind: 'replay', response: { status: 201 } });
  });

  it('uses the route timeout: a long route keeps its claim longer', async () => {
    expect(await begin('k-long', '{}', at(0), 120)).toEqual({ kind: 'new' });
    await expect(begin('k-long', '{}', at(60), 120)).rejects.toMatchObject({ status: 409 });
    expect(await begin('k-long', '{}', at(125), 120)).toEqual({ kind: 'new' });
  });

  it('keeps a finished response for replay long after the function timeout', async () => {
    expect(await begin('k-done', '{}', at(0))).toEqual({ kind: 'new' });
    await finishIdempotent(table, T, 'k-done', { status: 201, body: '{"id":1}', headers: {} });
    expect(await begin('k-done', '{}', new Date(at(0).getTime() + 3600_000))).toMatchObject({ kind: 'replay', response: { body: '{"id":1}' } });
    await expect(begin('k-done', '{"other":1}', at(5))).rejects.toMatchObject({ status: 422 });
  });
});
