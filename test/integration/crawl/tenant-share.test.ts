import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantShare } from '../../../functions/core/crawl/tenant-share.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from '../foundation/stores.js';

// A tenant's share of the crawl workers on the real DynamoDB adapter (dynalite): what bounds one
// tenant's crawl pages in flight on SQS, where the queue itself cannot hold slices back.
let table: Table;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

const now = 1_800_000_000_000;

describe('tenant share of crawl workers', () => {
  it('gives a tenant floor(pages / concurrency) slices at once, at least one', () => {
    expect(TenantShare.slices(20, 4)).toBe(5);
    expect(TenantShare.slices(8, 4)).toBe(2);
    expect(TenantShare.slices(3, 8)).toBe(1);
  });

  it('refuses a slice over the cap, not another tenant, and takes a slot back once given or expired', async () => {
    const a = new TenantShare(table, 'ten_share_a', 8, 4);
    const b = new TenantShare(table, 'ten_share_b', 8, 4);
    const s1 = await a.take('w1', now, 60_000);
    const s2 = await a.take('w2', now, 60_000);
    expect(s1).not.toBeNull();
    expect(s2).not.toBeNull();
    expect(s1).not.toEqual(s2);
    expect(await a.take('w3', now, 60_000)).toBeNull(); // at the cap: 2 slices of 4 pages
    expect(await b.take('w4', now, 60_000)).not.toBeNull(); // another tenant is not affected
    await a.release(s1!, 'w1');
    await a.release(s1!, 'w1'); // twice: harmless
    const s3 = await a.take('w3', now, 600_000);
    expect(s3).toEqual(s1);
    // A worker that died holding s2: its slot is taken over once its lease ran out, and its late
    // release does not free the new holder's slot.
    expect(await a.take('w5', now + 1_000, 60_000)).toBeNull();
    const s5 = await a.take('w5', now + 61_000, 60_000);
    expect(s5).toEqual(s2);
    await a.release(s2!, 'w2');
    expect(await a.take('w6', now + 62_000, 60_000)).toBeNull();
    // A slice still at work renews its slot, so it is not taken over when the first lease ends.
    expect(await a.renew(s5!, 'w5', now + 100_000, 60_000)).toBe(true);
    expect(await a.take('w7', now + 130_000, 60_000)).toBeNull();
    expect(await a.renew(s5!, 'w2', now + 130_000, 60_000)).toBe(false); // not the holder
  });
});
