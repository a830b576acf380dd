import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import type { Item, Table } from '../../ports/table.js';
import type { AuditRecord } from './audit-record.js';

// Every API function loads this module (the pipeline's audit record), so it builds no zod
// schema at import: the record's schema (audit-record.ts) and the listing (list-audit.ts) are
// loaded only by the functions that read the log back.
export type { AuditRecord } from './audit-record.js';

export const outcomeFor = (status: number): AuditRecord['outcome'] =>
  status >= 500 ? 'error' : status === 401 || status === 402 || status === 403 || status === 429 ? 'denied' : status >= 400 ? 'error' : 'allowed';

export function auditItem(r: Omit<AuditRecord, 'id'>): Item {
  const id = newId('aud');
  return { pk: keys.auditPartition(r.tenant_id), sk: `${r.ts}#${id}`, id, ...r };
}

/**
 * A pack: several audit records of one tenant in one table item, their JSON in this attribute,
 * newest first. Its sort key is its newest record's (`<ts>#<id>`, which no other item has), so a
 * pack sits in the partition where that record would. The group-commit sink writes packs (one
 * item per batch and tenant instead of one per record: about a third of the store's work a
 * record); the direct sink (Lambda) writes single records. The listing reads both (list-audit.ts).
 */
export const AUDIT_PACK_ATTR = 'records_json';

/** Largest pack, in bytes of its records' JSON: well under DynamoDB's 400 KB item limit. */
export const MAX_AUDIT_PACK_BYTES = 256 * 1024;

/** The records an audit item holds: a pack's, newest first, or the item itself. */
export function auditRecordsIn(item: Item): Record<string, unknown>[] {
  const packed = item[AUDIT_PACK_ATTR];
  return typeof packed === 'string' ? (JSON.parse(packed) as Record<string, unknown>[]) : [item];
}

/**
 * The items that store these audit items: per tenant partition, one pack (or a few, each at most
 * MAX_AUDIT_PACK_BYTES), or the item itself when it is its partition's only one. Every record
 * is in exactly one of them.
 */
export function packAuditItems(items: Item[]): Item[] {
  return packAudit(items).map((p) => p.item);
}

/** A record as a pack holds it: without its keys (the pack's are its partition and newest record's). */
export function packedJson(item: Item): string {
  const rec: Record<string, unknown> = { ...item };
  delete rec.pk;
  delete rec.sk;
  return JSON.stringify(rec);
}

/** The pack item of these records (packedJson each, newest first) in partition `pk`, under sort key `sk`. */
export const packItem = (pk: string, sk: string, records: string[]): Item => ({ pk, sk, [AUDIT_PACK_ATTR]: `[${records.join(',')}]` });

/** packAuditItems, with the ids of the records each item holds. */
export function packAudit(items: Item[]): { item: Item; ids: string[] }[] {
  const byPk = new Map<string, Item[]>();
  for (const it of items) {
    const group = byPk.get(it.pk);
    if (group) group.push(it);
    else byPk.set(it.pk, [it]);
  }
  const out: { item: Item; ids: string[] }[] = [];
  for (const [pk, group] of byPk) {
    if (group.length === 1) {
      out.push({ item: group[0]!, ids: [group[0]!.id as string] });
      continue;
    }
    group.sort((a, b) => (a.sk < b.sk ? 1 : a.sk > b.sk ? -1 : 0));
    let chunk: { it: Item; json: string }[] = [];
    let bytes = 0;
    const close = () => {
      if (chunk.length === 1) out.push({ item: chunk[0]!.it, ids: [chunk[0]!.it.id as string] });
      else if (chunk.length) out.push({ item: packItem(pk, chunk[0]!.it.sk, chunk.map((c) => c.json)), ids: chunk.map((c) => c.it.id as string) });
      chunk = [];
      bytes = 0;
    };
    for (const it of group) {
      const json = packedJson(it);
      const size = Buffer.byteLength(json) + 1;
      if (chunk.length && bytes + size > MAX_AUDIT_PACK_BYTES) close();
      chunk.push({ it, json });
      bytes += size;
    }
    close();
  }
  return out;
}

/**
 * Where audit records go. `record` never throws into the request path.
 *
 * Durability: `record` resolves once the record is durable, and the pipeline awaits it before the
 * response is sent, so a crash loses no record of an answered call. The direct sink (Lambda)
 * writes each record with one put. The buffered sink (local mode) amortises:
 * - With a journal (the local service: adapters/local/audit-journal.ts), a record is durable once
 *   it is appended to the journal file (one write; it survives a crash or kill -9 of the service,
 *   as the local table's own LevelDB writes do); the table write follows within FLUSH_MS, the
 *   records of that moment packed per tenant into one item, and a start after a crash writes what
 *   the journal holds that the table does not, each record once.
 * - Without one (or when a journal append fails), group commit: records of calls that end while a
 *   batch write is in flight wait for the next one, which writes them all, and each call waits for
 *   its own batch.
 */
export interface AuditSink {
  record(r: Omit<AuditRecord, 'id'>): Promise<void>;
  /** Resolves when every record recorded before the call is in the table (or the store refused it again). */
  flush(): Promise<void>;
  /** After the last flush: lets go of what the sink holds open (the journal's files). */
  close?(): void;
}

export class DirectAuditSink implements AuditSink {
  constructor(private readonly table: Table) {}
  async record(r: Omit<AuditRecord, 'id'>) {
    await this.table.put(auditItem(r));
  }
  async flush() {}
}

/**
 * Where the buffered sink makes records durable before the table has them (a local file; see
 * adapters/local/audit-journal.ts). `append` writes records at once (one write) and returns a
 * handle to give back to `stored` for each of them once it is in the table, or undefined when
 * it could not (the records then wait for the table). `packing` is told which records a pack
 * item holds before the pack is written, so a replay writes that same item again rather than the
 * records a second time in another pack; false when it could not note it.
 */
export interface AuditJournal {
  append(items: Item[]): unknown;
  packing(pack: { pk: string; sk: string; ids: string[] }): boolean;
  stored(handles: unknown[]): void;
  close?(): void;
}

/**
 * Batch writes in flight at once. One: the records that come during a write all go in the next
 * (group commit: about 13 a write under 32 concurrent calls, four in flight wrote about 4 a write;
 * journaled: the next write starts FLUSH_MS after the last ended, about 32 writes a second under
 * the hot-path bench's load).
 */
const MAX_WRITES_IN_FLIGHT = 1;

/** Records a batch write takes at most (packed per tenant, so usually one item a tenant). */
const MAX_BATCH = 500;

/** With a journal: how long a record waits for others before its batch write starts. */
const FLUSH_MS = 25;

interface Pending {
  item: Item;
  /** The journal's handle, when the record is in the journal. */
  handle?: unknown;
  /** Resolves the call waiting for the table (group commit). */
  done?: () => void;
}

/** A pack item and the records it holds: retried as it is, so a record is never in two packs. */
interface PackWrite {
  item: Item;
  records: Pending[];
}

/** Buffered writes (see AuditSink): with a journal, durable at append; otherwise group commit. */
export class BufferedAuditSink implements AuditSink {
  private buf: Pending[] = [];
  /** Records of this turn of the event loop, for the journal. */
  private toJournal: Pending[] = [];
  private journalTurn: NodeJS.Immediate | undefined;
  /** Packs a failed write left: written again first, unchanged. */
  private failed: PackWrite[] = [];
  private readonly writes = new Set<Promise<void>>();
  private retry: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly table: Table,
    private readonly retryMs = 1000,
    private readonly onError = (e: unknown) => console.error('audit flush failed', e),
    private readonly journal?: AuditJournal,
    /** With a journal: how long a record waits for others before its batch write starts. */
    private readonly flushMs = FLUSH_MS,
  ) {}

  record(r: Omit<AuditRecord, 'id'>): Promise<void> {
    const item = auditItem(r);
    return new Promise<void>((done) => {
      if (this.journal) {
        // The records of this turn of the event loop go to the journal in one write.
        this.toJournal.push({ item, done });
        this.journalTurn ??= setImmediate(() => this.journalWrite());
        return;
      }
      this.buf.push({ item, done });
      // After a failure too: the records kept from it go with this one.
      this.kick();
    });
  }

  /** Appends the records of this turn to the journal: durable, their calls are answered now. */
  private journalWrite() {
    const batch = this.toJournal;
    this.toJournal = [];
    this.journalTurn = undefined;
    const handle = this.journal!.append(batch.map((b) => b.item));
    if (handle === undefined) {
      // Not durable in the journal: these calls wait for the table (group commit).
      this.buf.push(...batch);
      this.kick();
      return;
    }
    for (const b of batch) {
      this.buf.push({ item: b.item, handle });
      b.done!();
    }
    if (this.buf.length >= MAX_BATCH) this.kick();
    else this.schedule();
  }

  /** With a journal: the next batch write starts FLUSH_MS from now, with what has come by then. */
  private schedule() {
    if (this.timer || this.retry || !(this.buf.length || this.failed.length)) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, this.flushMs);
    this.timer.unref?.();
  }

  async flush(): Promise<void> {
    if (this.journalTurn) {
      clearImmediate(this.journalTurn);
      this.journalWrite();
    }
    if (this.retry) clearTimeout(this.retry);
    if (this.timer) clearTimeout(this.timer);
    this.retry = this.timer = undefined;
    for (;;) {
      this.kick();
      if (!this.writes.size) return;
      await Promise.all([...this.writes]);
      // The store refused a write: what is left waits for the retry.
      if (this.retry) return;
    }
  }

  close(): void {
    this.journal?.close?.();
  }

  /** Starts batch writes of what is queued, while fewer than MAX_WRITES_IN_FLIGHT are in flight. */
  private kick() {
    while ((this.failed.length || this.buf.length) && this.writes.size < MAX_WRITES_IN_FLIGHT) {
      const packs = this.failed.length ? this.failed.splice(0, 25) : this.pack(this.buf.splice(0, MAX_BATCH));
      const w = this.write(packs).finally(() => {
        this.writes.delete(w);
        // Group commit: what came during the write goes now. Journaled: with what comes next.
        if (this.retry) return;
        if (this.journal && this.buf.every((b) => !b.done)) this.schedule();
        else this.kick();
      });
      this.writes.add(w);
    }
  }

  /**
   * The items these records go in: packs, each told to the journal before it is written. A record
   * the journal could not take, and the records of a pack it could not note, go as single items
   * (under their own keys a replay cannot store them twice).
   */
  private pack(batch: Pending[]): PackWrite[] {
    const byId = new Map(batch.map((b) => [b.item.id as string, b]));
    const single = (b: Pending): PackWrite => ({ item: b.item, records: [b] });
    const packable = this.journal ? batch.filter((b) => b.handle !== undefined) : batch;
    const out: PackWrite[] = this.journal ? batch.filter((b) => b.handle === undefined).map(single) : [];
    for (const { item, ids } of packAudit(packable.map((b) => b.item))) {
      const records = ids.map((id) => byId.get(id)!);
      if (!this.journal || ids.length === 1 || this.journal.packing({ pk: item.pk, sk: item.sk, ids })) out.push({ item, records });
      else out.push(...records.map(single));
    }
    return out;
  }

  private async write(packs: PackWrite[]) {
    const records = packs.flatMap((p) => p.records);
    try {
      await this.table.batchPut(packs.map((p) => p.item));
      // The store is back: what a failure left goes next, without waiting for the retry.
      if (this.retry) clearTimeout(this.retry);
      this.retry = undefined;
      const handles = records.filter((r) => r.handle !== undefined).map((r) => r.handle);
      if (handles.length) this.journal!.stored(handles);
    } catch (e) {
      this.onError(e);
      // Kept, as they are, for a later write; the callers are not held while the store is down.
      this.failed.push(...packs);
      this.retry ??= setTimeout(() => {
        this.retry = undefined;
        this.kick();
      }, this.retryMs);
      this.retry.unref?.();
    } finally {
      for (const r of records) {
        r.done?.();
        r.done = undefined;
      }
    }
  }
}
