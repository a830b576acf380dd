import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStores } from '../foundation/stores.js';
import { AUDIT_PACK_ATTR, MAX_AUDIT_PACK_BYTES, auditItem, auditRecordsIn, packAuditItems, BufferedAuditSink, type AuditRecord } from '../../../functions/core/audit/audit.js';
import { listAudit } from '../../../functions/core/audit/list-audit.js';
import { keys } from '../../../functions/core/table-keys.js';
import { AppError } from '../../../functions/core/errors.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

// The local audit sink packs the records of one batch and tenant into one item (issue 31): a
// third of the store's work a record. The listing reads packs and single records alike, newest
// first, and its cursor can stop inside a pack without skipping or repeating a record.
let stores: EmbeddedStores;
let table: DynamoTable;
beforeAll(async () => ({ stores, table } = await memoryStores()));
afterAll(async () => stores?.close());

const rec = (tenant: string, ms: number, extra: Partial<AuditRecord> = {}): Omit<AuditRecord, 'id'> => ({
  ts: new Date(Date.UTC(2031, 0, 1, 0, 0, 0, ms)).toISOString(), request_id: `req_${ms}`, tenant_id: tenant, principal: { type: 'key', id: 'key_1' },
  surface: 'api', action: ms % 3 === 0 ? 'runs.list' : 'tenant.get', resource: null, outcome: ms % 2 ? 'denied' : 'allowed', status: ms % 2 ? 429 : 200, ip: '127.0.0.1', user_agent: 'ua', ...extra,
});

describe('packAuditItems', () => {
  it('packs per tenant, newest first, keeps a lone record as it is and splits at the size bound', () => {
    const items = [rec('ten_a', 1), rec('ten_b', 2), rec('ten_a', 3), rec('ten_a', 2)].map(auditItem);
    const out = packAuditItems(items);
    expect(out).toHaveLength(2);
    const a = out.find((i) => i.pk === keys.auditPartition('ten_a'))!;
    expect(typeof a[AUDIT_PACK_ATTR]).toBe('string');
    expect(auditRecordsIn(a).map((r) => r.request_id)).toEqual(['req_3', 'req_2', 'req_1']);
    expect(a.sk).toBe(items[2]!.sk); // the newest record's sort key
    const b = out.find((i) => i.pk === keys.auditPartition('ten_b'))!;
    expect(b).toBe(items[1]);

    const big = Array.from({ length: 40 }, (_, i) => auditItem(rec('ten_c', i, { user_agent: 'x'.repeat(16_000) })));
    const packs = packAuditItems(big);
    expect(packs.length).toBeGreaterThan(1);
    for (const p of packs) expect(Buffer.byteLength(String(p[AUDIT_PACK_ATTR] ?? JSON.stringify(p)))).toBeLessThanOrEqual(MAX_AUDIT_PACK_BYTES + 2);
    expect(packs.flatMap(auditRecordsIn).map((r) => r.request_id).sort()).toEqual(big.map((r) => r.request_id).sort());
  });
});

describe('listAudit over packs and single records', () => {
  it('pages through every record exactly once, newest first, cursors stopping inside packs', async () => {
    const t = 'ten_pack_list';
    // Single records (as the direct sink on Lambda writes them) and packs of several sizes.
    const singles = [0, 1, 2, 50, 51].map((ms) => auditItem(rec(t, ms)));
    const packed = [
      ...packAuditItems(Array.from({ length: 7 }, (_, i) => auditItem(rec(t, 10 + i)))),
      ...packAuditItems(Array.from({ length: 13 }, (_, i) => auditItem(rec(t, 30 + i)))),
      ...packAuditItems(Array.from({ length: 2 }, (_, i) => auditItem(rec(t, 60 + i)))),
    ];
    await table.batchPut([...singles, ...packed]);
    const all = [...singles.flatMap(auditRecordsIn), ...packed.flatMap(auditRecordsIn)];
    const expected = all.map((r) => String(r.ts)).sort().reverse();
    for (const limit of [1, 3, 4, 7, 100]) {
      const got: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 100; pages++) {
        const page = await listAudit(table, { tenantId: t, limit, cursor });
        expect(page.data.length).toBeLessThanOrEqual(limit);
        got.push(...page.data.map((r) => r.ts));
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
      expect(got).toEqual(expected);
    }
    // Filters apply to the records inside packs too.
    const denied = await listAudit(table, { tenantId: t, limit: 100, outcome: 'denied' });
    expect(denied.data.map((r) => r.ts)).toEqual(all.filter((r) => r.outcome === 'denied').map((r) => String(r.ts)).sort().reverse());
    const filteredPages: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAudit(table, { tenantId: t, limit: 2, action: 'runs.list', cursor });
      filteredPages.push(...page.data.map((r) => r.ts));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(filteredPages).toEqual(all.filter((r) => r.action === 'runs.list').map((r) => String(r.ts)).sort().reverse());
  });

  it('refuses a cursor of another tenant or a made-up one with 400 invalid_cursor', async () => {
    const t = 'ten_pack_cursor';
    await table.batchPut(packAuditItems(Array.from({ length: 5 }, (_, i) => auditItem(rec(t, i)))));
    const first = await listAudit(table, { tenantId: t, limit: 2 });
    expect(first.next_cursor).toBeTruthy();
    for (const cursor of [first.next_cursor!, 'garbage', `${first.next_cursor!.split('.')[0]}.${Buffer.from('{"sk":"","skip":-1}').toString('base64url')}`]) {
      const err = await listAudit(table, { tenantId: cursor === first.next_cursor ? 'ten_other' : t, limit: 2, cursor }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('invalid_cursor');
    }
  });

  it('lists what the group-commit sink wrote under concurrent calls, each record once', async () => {
    const sink = new BufferedAuditSink(table);
    await Promise.all(Array.from({ length: 60 }, (_, i) => sink.record(rec('ten_pack_sink', 100 + i))));
    const stored = await table.query({ pk: keys.auditPartition('ten_pack_sink'), limit: 100 });
    expect(stored.items.length).toBeLessThan(60);
    const listed = await listAudit(table, { tenantId: 'ten_pack_sink', limit: 100 });
    expect(listed.data.map((r) => r.request_id).sort()).toEqual(Array.from({ length: 60 }, (_, i) => `req_${100 + i}`).sort());
    expect(new Set(listed.data.map((r) => r.id)).size).toBe(60);
  });
});
