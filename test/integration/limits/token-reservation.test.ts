import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStores } from '../foundation/stores.js';
import { reserveModelTokens, settleModelTokens } from '../../../functions/core/limits/token-reservation.js';
import { keys, monthOf } from '../../../functions/core/table-keys.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

// Model tokens are reserved against the cap before a call and settled after it: however many
// calls reserve at once, what they hold never passes the cap, usage written before the held total
// existed included.
let stores: EmbeddedStores;
let table: DynamoTable;
beforeAll(async () => ({ stores, table } = await memoryStores()));
afterAll(async () => stores?.close());
const now = new Date(Date.UTC(2032, 4, 10));
const usage = (tenant: string) => table.get(keys.usage(tenant, monthOf(now)), { consistent: true });

describe('model token reservations', () => {
  it('concurrent reservations on a month with usage from before the held total fit under the cap together', async () => {
    // 1,100 used, cap 2,000, 300 a call: three fit, the fourth would pass the cap.
    await table.update(keys.usage('t_legacy', monthOf(now)), { add: { model_tokens: 1100 } });
    const granted = await Promise.all(Array.from({ length: 10 }, () => reserveModelTokens(table, 't_legacy', 2000, 300, now)));
    expect(granted.filter(Boolean)).toHaveLength(3);
    expect(Number((await usage('t_legacy'))!.model_tokens_held)).toBe(2000);
  });

  it('a settled call swaps its reservation for what it used, and the next reservation counts it', async () => {
    expect(await reserveModelTokens(table, 't_settle', 1000, 400, now)).toBe(true);
    await settleModelTokens(table, 't_settle', 400, 250, now);
    expect(await usage('t_settle')).toMatchObject({ model_tokens: 250, model_tokens_held: 250 });
    expect(await reserveModelTokens(table, 't_settle', 1000, 751, now)).toBe(false);
    expect(await reserveModelTokens(table, 't_settle', 1000, 750, now)).toBe(true);
  });

  it('with no cap a reservation is always granted, and past usage is still carried into the held total', async () => {
    await table.update(keys.usage('t_open', monthOf(now)), { add: { model_tokens: 500 } });
    expect(await reserveModelTokens(table, 't_open', null, 100, now)).toBe(true);
    expect(Number((await usage('t_open'))!.model_tokens_held)).toBe(600);
  });

  it('a call bigger than the whole cap is refused without a write', async () => {
    expect(await reserveModelTokens(table, 't_big', 100, 101, now)).toBe(false);
    expect(await usage('t_big')).toBeUndefined();
  });
});
