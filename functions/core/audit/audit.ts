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
  const byPk = new Map<string, Item[]>();
  for (const it of items) {
    const group = byPk.get(it.pk);
    if (group) group.push(it);
    else byPk.set(it.pk, [it]);
  }
  const out: Item[] = [];
  for (const [pk, group] of byPk) {
    if (group.length === 1) {
      out.push(group[0]!);
      continue;
    }
    group.sort((a, b) => (a.sk < b.sk ? 1 : a.sk > b.sk ? -1 : 0));
    let chunk: { it: Item; json: string }[] = [];
    let bytes = 0;
    const close = () => {
      if (chunk.length === 1) out.push(chunk[0]!.it);
      else if (chunk.length) out.push({ pk, sk: chunk[0]!.it.sk, [AUDIT_PACK_ATTR]: `[${chunk.map((c) => c.json).join(',')}]` });
      chunk = [];
      bytes = 0;
    };
    for (const it of group) {
      const rec: Record<string, unknown> = { ...it };
      delete rec.pk;
      delete rec.sk;
      const json = JSON.stringify(rec);
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
 * Durability: `record` resolves once the record is stored (or, if the store refused it, once it is
 * queued again for the next write), and the pipeline awaits it before the response is sent, so
 * no call is answered whose record is not in the table: a crash loses no record of an answered
 * call. The direct sink (Lambda) writes each record with one put. The group-commit sink (local
 * mode) amortises: records of calls that finish while batch writes are in flight wait for the next
 * one, which writes them all (packed: one item per tenant, see AUDIT_PACK_ATTR), so under concurrent load a record costs a
 * fraction of a table call; a lone call still costs one write and waits for it.
 */
export interface AuditSink {
  record(r: Omit<AuditRecord, 'id'>): Promise<void>;
  flush(): Promise<void>;
}

export class DirectAuditSink implements AuditSink {
  constructor(private readonly table: Table) {}
  async record(r: Omit<AuditRecord, 'id'>) {
    await this.table.put(auditItem(r));
  }
  async flush() {}
}

/**
 * Batch writes in flight at once. One: the records of calls that end during a write all go in the
 * next (about 13 a write under 32 concurrent calls; four in flight wrote about 4 a write, and the
 * hot-path bench served no more calls for it, nor with records not awaited at all).
 */
const MAX_WRITES_IN_FLIGHT = 1;

/** Records a batch write takes at most (packed per tenant, so usually one item a tenant). */
const MAX_BATCH = 100;

/**
 * Group commit (see AuditSink): a record is written with the records queued beside it, up to
 * MAX_WRITES_IN_FLIGHT batch writes at a time; a call waits for its own batch only.
 */
export class BufferedAuditSink implements AuditSink {
  private buf: { item: Item; done: () => void }[] = [];
  private readonly writes = new Set<Promise<void>>();
  private retry: NodeJS.Timeout | undefined;
  constructor(private readonly table: Table, private readonly retryMs = 1000, private readonly onError = (e: unknown) => console.error('audit flush failed', e)) {}

  record(r: Omit<AuditRecord, 'id'>): Promise<void> {
    return new Promise<void>((done) => {
      this.buf.push({ item: auditItem(r), done });
      // After a failure too: the records kept from it go with this one.
      this.kick();
    });
  }

  /** Resolves when every record queued before the call is stored (or the store refused it again). */
  async flush(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    this.kick();
    while (this.writes.size) await Promise.all([...this.writes]);
  }

  /** Starts batch writes of what is queued, while fewer than MAX_WRITES_IN_FLIGHT are in flight. */
  private kick() {
    while (this.buf.length && this.writes.size < MAX_WRITES_IN_FLIGHT) {
      const batch = this.buf.splice(0, MAX_BATCH);
      const w = this.write(batch).finally(() => {
        this.writes.delete(w);
        if (!this.retry) this.kick();
      });
      this.writes.add(w);
    }
  }

  private async write(batch: { item: Item; done: () => void }[]) {
    try {
      await this.table.batchPut(packAuditItems(batch.map((b) => b.item)));
    } catch (e) {
      this.onError(e);
      // Kept, in order, for a later write; the callers are not held while the store is down.
      this.buf.unshift(...batch.map((b) => ({ item: b.item, done: () => undefined })));
      this.retry ??= setTimeout(() => {
        this.retry = undefined;
        this.kick();
      }, this.retryMs);
      this.retry.unref?.();
    } finally {
      batch.forEach((b) => b.done());
    }
  }
}
