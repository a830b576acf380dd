import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStores } from '../foundation/stores.js';
import { BufferedAuditSink, type AuditRecord } from '../../../functions/core/audit/audit.js';
import { listAudit } from '../../../functions/core/audit/list-audit.js';
import { FileAuditJournal, replayAuditJournals } from '../../../functions/adapters/local/audit-journal.js';
import type { Item, Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

// The local audit journal (issue 31): a call is answered once its record is appended to a file,
// the table write follows in packs, and a start after a crash writes what the journal holds,
// each record once, whatever the crash interrupted.
let stores: EmbeddedStores;
let table: DynamoTable;
const dirs: string[] = [];
beforeAll(async () => ({ stores, table } = await memoryStores()));
afterAll(async () => {
  await stores?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'gleaner-journal-'));
  dirs.push(d);
  return d;
};
const rec = (tenant: string, i: number): Omit<AuditRecord, 'id'> => ({
  ts: new Date(Date.UTC(2032, 0, 1, 0, 0, 0, i)).toISOString(), request_id: `req_${i}`, tenant_id: tenant, principal: { type: 'key', id: 'key_1' },
  surface: 'api', action: 'tenant.get', resource: null, outcome: 'denied', status: 429, ip: '127.0.0.1', user_agent: 'ua',
});
const journalText = (dir: string) => readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('');
const listed = async (tenant: string) => (await listAudit(table, { tenantId: tenant, limit: 1000 })).data.map((r) => r.request_id).sort();
const expected = (from: number, n: number) => Array.from({ length: n }, (_, i) => `req_${from + i}`).sort();

/** A table whose batch writes never happen (the process dies before they do). */
const deadTable = (): Table => new Proxy(table, { get: (t, p, r) => (p === 'batchPut' ? () => new Promise(() => undefined) : Reflect.get(t, p, r)) });

describe('BufferedAuditSink with a journal', () => {
  it('answers a call once its record is in the journal, before the table has it', async () => {
    const dir = newDir();
    const sink = new BufferedAuditSink(deadTable(), 1000, () => undefined, new FileAuditJournal(dir), 60_000);
    await Promise.all(Array.from({ length: 20 }, (_, i) => sink.record(rec('ten_j_durable', i))));
    const text = journalText(dir);
    for (let i = 0; i < 20; i++) expect(text).toContain(`"request_id":"req_${i}"`);
    expect(await listed('ten_j_durable')).toEqual([]);
    // The process "dies" here: a start replays the journal into the table.
    expect(await replayAuditJournals(dir, table)).toEqual({ files: 1, records: 20 });
    expect(await listed('ten_j_durable')).toEqual(expected(0, 20));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes the records in packs within its flush interval, and empties the journal once they are in', async () => {
    const dir = newDir();
    const writes: Item[][] = [];
    const counting = new Proxy(table, { get: (t, p, r) => (p === 'batchPut' ? (items: Item[]) => (writes.push(items), t.batchPut(items)) : Reflect.get(t, p, r)) });
    const sink = new BufferedAuditSink(counting, 1000, () => undefined, new FileAuditJournal(dir), 10);
    await Promise.all(Array.from({ length: 60 }, (_, i) => sink.record(rec('ten_j_pack', 100 + i))));
    await sink.flush();
    expect(writes.length).toBe(1);
    expect(writes[0]!.length).toBe(1); // one pack for the one tenant
    expect(await listed('ten_j_pack')).toEqual(expected(100, 60));
    expect(journalText(dir)).toBe('');
    // At shutdown (after the last flush) the emptied files go.
    sink.close();
    expect(readdirSync(dir)).toEqual([]);
    // Nothing left to replay: the table keeps each record once.
    expect((await replayAuditJournals(dir, table)).records).toBe(0);
    expect(await listed('ten_j_pack')).toEqual(expected(100, 60));
  });

  it('stores each record once when the crash came after a pack was written but before the journal knew', async () => {
    const dir = newDir();
    // The store takes every pack, then the process dies before the answer arrives.
    const writtenThenDead = new Proxy(table, { get: (t, p, r) => (p === 'batchPut' ? async (items: Item[]) => (await t.batchPut(items), new Promise(() => undefined)) : Reflect.get(t, p, r)) });
    const sink = new BufferedAuditSink(writtenThenDead, 1000, () => undefined, new FileAuditJournal(dir), 5);
    await Promise.all(Array.from({ length: 30 }, (_, i) => sink.record(rec('ten_j_ambiguous', 200 + i))));
    await vi.waitFor(async () => expect(await listed('ten_j_ambiguous')).toEqual(expected(200, 30)), { timeout: 10_000, interval: 20 });
    expect(journalText(dir)).toContain('"p":'); // the pack's marker
    await replayAuditJournals(dir, table);
    expect(await listed('ten_j_ambiguous')).toEqual(expected(200, 30));
  });

  it('retries a pack the store refused as it was, so no record lands in two packs', async () => {
    const dir = newDir();
    let calls = 0;
    // The first write stores the pack and still fails (an answer lost on the way back).
    const flaky = new Proxy(table, { get: (t, p, r) => (p === 'batchPut' ? async (items: Item[]) => { await t.batchPut(items); if (calls++ === 0) throw new Error('connection reset'); } : Reflect.get(t, p, r)) });
    const sink = new BufferedAuditSink(flaky, 5, () => undefined, new FileAuditJournal(dir), 5);
    await Promise.all(Array.from({ length: 25 }, (_, i) => sink.record(rec('ten_j_retry', 300 + i))));
    // The first write (stored, answer lost) and its retry, however slow the machine.
    await vi.waitFor(() => expect(calls).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 10 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => sink.record(rec('ten_j_retry', 400 + i))));
    await sink.flush();
    expect(await listed('ten_j_retry')).toEqual([...expected(300, 25), ...expected(400, 5)].sort());
  });

  it('skips a torn last line, rolls files over, and deletes them oldest first once their records are in', async () => {
    const dir = newDir();
    const journal = new FileAuditJournal(dir, () => undefined, 1_000);
    const sink = new BufferedAuditSink(deadTable(), 1000, () => undefined, journal, 60_000);
    for (let i = 0; i < 12; i++) await sink.record(rec('ten_j_roll', 500 + i));
    expect(readdirSync(dir).length).toBeGreaterThan(2);
    // A crash in the middle of an append: half a line (that call was never answered).
    appendFileSync(join(dir, readdirSync(dir).sort().at(-1)!), '{"r":{"pk":"TEN#ten_j_roll#AUDIT","sk":"2032');
    expect((await replayAuditJournals(dir, table)).records).toBe(12);
    expect(await listed('ten_j_roll')).toEqual(expected(500, 12));

    const dir2 = newDir();
    const live = new BufferedAuditSink(table, 1000, () => undefined, new FileAuditJournal(dir2, () => undefined, 1_000), 60_000);
    for (let i = 0; i < 12; i++) await live.record(rec('ten_j_roll2', 600 + i));
    expect(readdirSync(dir2).length).toBeGreaterThan(2);
    await live.flush();
    expect(readdirSync(dir2)).toHaveLength(1);
    expect(journalText(dir2)).toBe('');
    expect(await listed('ten_j_roll2')).toEqual(expected(600, 12));
  });

  it('falls back to waiting for the table when the journal cannot be written', async () => {
    const dir = newDir();
    const errors: unknown[] = [];
    const journal = new FileAuditJournal(join(dir, 'missing', '\0bad'), (e) => errors.push(e));
    const sink = new BufferedAuditSink(table, 1000, () => undefined, journal, 60_000);
    await Promise.all(Array.from({ length: 5 }, (_, i) => sink.record(rec('ten_j_fallback', 700 + i))));
    expect(errors.length).toBeGreaterThan(0);
    // Answered only once the table had them.
    expect(await listed('ten_j_fallback')).toEqual(expected(700, 5));
  });
});
