import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStores } from '../foundation/stores.js';
import { countingTable } from './table-call-counter.js';
import { RateLimiter } from '../../../functions/core/limits/rate-limiter.js';
import { BufferedAuditSink, auditRecordsIn } from '../../../functions/core/audit/audit.js';
import { keys } from '../../../functions/core/table-keys.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

// The authenticated hot path's own table calls (issue 31): the rate limiter answers a known-empty
// bucket without the table, and the local audit sink writes the records of concurrent calls in
// one batch, yet resolves each call only once its record is stored.
let stores: EmbeddedStores;
let table: DynamoTable;
beforeAll(async () => ({ stores, table } = await memoryStores()));
afterAll(async () => stores?.close());

describe('RateLimiter on an empty bucket', () => {
  it('denies without a table call until the bucket allows again, then asks the table', async () => {
    const c = countingTable(table);
    const rl = new RateLimiter(c.table);
    const t0 = Date.parse('2030-01-01T00:00:00Z');
    // 5 a minute: one token every 12 s.
    for (let i = 0; i < 5; i++) expect((await rl.take('ten_deny', 'api', 5, 60, new Date(t0))).allowed).toBe(true);
    const first = await rl.take('ten_deny', 'api', 5, 60, new Date(t0));
    expect(first.allowed).toBe(false);
    expect(first.retryAfterSeconds).toBe(12);
    const before = c.total();
    const later = [];
    for (let i = 0; i < 50; i++) later.push(await rl.take('ten_deny', 'api', 5, 60, new Date(t0 + i * 200)));
    expect(later.every((d) => !d.allowed)).toBe(true);
    expect(later[0]!.retryAfterSeconds).toBe(12);
    expect(later[49]!.retryAfterSeconds).toBe(3); // 9.8 s later: 2.2 s left, rounded up
    expect(c.total() - before).toBe(0);
    // Once a token is due, the table is asked again and grants it.
    const due = await rl.take('ten_deny', 'api', 5, 60, new Date(t0 + 12_000));
    expect(due.allowed).toBe(true);
    expect(c.total() - before).toBeGreaterThan(0);
  });

  it('costs one table call per token when a drained bucket refills one token at a time', async () => {
    const c = countingTable(table);
    const rl = new RateLimiter(c.table);
    const t0 = Date.parse('2030-03-01T00:00:00Z');
    // 600 a minute: leases of 30 tokens, one token every 100 ms once drained.
    let granted = 0;
    for (let i = 0; i < 600; i++) if ((await rl.take('ten_refill', 'api', 600, 60, new Date(t0))).allowed) granted++;
    expect(granted).toBe(600);
    const before = c.total();
    let later = 0;
    // 2 s of calls every 10 ms: 20 refills, 200 calls.
    for (let ms = 10; ms <= 2000; ms += 10) if ((await rl.take('ten_refill', 'api', 600, 60, new Date(t0 + ms))).allowed) later++;
    expect(later).toBe(20);
    // One conditional write per token (a lease asked for more than the bucket could have, or a
    // grant of the last token not remembered as a denial, cost three or four more each).
    expect(c.total() - before).toBe(20);
  });

  it('never lets a remembered denial outlive the bucket: another process may not have used the tokens', async () => {
    const a = new RateLimiter(table);
    const b = new RateLimiter(table);
    const t0 = Date.parse('2030-02-01T00:00:00Z');
    for (let i = 0; i < 2; i++) expect((await a.take('ten_two_deny', 'api', 2, 10, new Date(t0))).allowed).toBe(true);
    expect((await a.take('ten_two_deny', 'api', 2, 10, new Date(t0))).allowed).toBe(false);
    expect((await b.take('ten_two_deny', 'api', 2, 10, new Date(t0 + 1000))).allowed).toBe(false);
    // One token every 5 s: both processes get one at t0 + 5 s (only one of them), none before.
    expect((await a.take('ten_two_deny', 'api', 2, 10, new Date(t0 + 4999))).allowed).toBe(false);
    const got = await Promise.all([a.take('ten_two_deny', 'api', 2, 10, new Date(t0 + 5000)), b.take('ten_two_deny', 'api', 2, 10, new Date(t0 + 5000))]);
    expect(got.filter((d) => d.allowed)).toHaveLength(1);
  });
});

describe('BufferedAuditSink (group commit)', () => {
  const record = (i: number) => ({
    ts: new Date(Date.UTC(2030, 0, 1, 0, 0, 0, i)).toISOString(), request_id: `req_${i}`, tenant_id: 'ten_audit', principal: { type: 'key' as const, id: 'key_1' },
    surface: 'api' as const, action: 'tenant.get', resource: null, outcome: 'allowed' as const, status: 200, ip: '127.0.0.1', user_agent: 'test',
  });

  it('stores every record of concurrent calls exactly once, in a few batch writes', async () => {
    const c = countingTable(table);
    const sink = new BufferedAuditSink(c.table);
    await Promise.all(Array.from({ length: 100 }, (_, i) => sink.record(record(i))));
    const stored = await table.query({ pk: keys.auditPartition('ten_audit'), limit: 1000 });
    const ids = stored.items.flatMap(auditRecordsIn).map((i) => String(i.request_id)).sort();
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => `req_${i}`).sort());
    // The first goes alone (one write in flight at a time); the other 99 queue behind it and go
    // together, packed into one item.
    expect(c.calls.batchPut).toBeLessThanOrEqual(2);
    expect(stored.items.length).toBeLessThanOrEqual(2);
  });

  it('resolves a call only once its record can be read back', async () => {
    const sink = new BufferedAuditSink(table);
    for (let i = 200; i < 205; i++) {
      await sink.record({ ...record(i), tenant_id: 'ten_audit_rb' });
      const page = await table.query({ pk: keys.auditPartition('ten_audit_rb'), limit: 100 });
      expect(page.items.flatMap(auditRecordsIn).map((x) => String(x.request_id))).toContain(`req_${i}`);
    }
  });

  it('keeps a record the store refused and writes it with the next batch', async () => {
    let fail = true;
    const flaky = new Proxy(table, {
      get(target, prop, receiver) {
        if (prop === 'batchPut') return async (items: never[]) => {
          if (fail) throw new Error('store unavailable');
          return target.batchPut(items);
        };
        return Reflect.get(target, prop, receiver);
      },
    });
    const errors: unknown[] = [];
    const sink = new BufferedAuditSink(flaky, 10_000, (e) => errors.push(e));
    await sink.record({ ...record(300), tenant_id: 'ten_audit_flaky' });
    expect(errors).toHaveLength(1);
    fail = false;
    await sink.record({ ...record(301), tenant_id: 'ten_audit_flaky' });
    const page = await table.query({ pk: keys.auditPartition('ten_audit_flaky'), limit: 100 });
    expect(page.items.flatMap(auditRecordsIn).map((x) => String(x.request_id)).sort()).toEqual(['req_300', 'req_301']);
    await sink.flush();
  });
});
