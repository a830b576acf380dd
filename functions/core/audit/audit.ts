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
 * Where audit records go. `record` never throws into the request path.
 *
 * Durability: `record` resolves once the record is stored (or, if the store refused it, once it is
 * queued again for the next write), and the pipeline awaits it before the response is sent, so
 * no call is answered whose record is not in the table: a crash loses no record of an answered
 * call. The direct sink (Lambda) writes each record with one put. The group-commit sink (local
 * mode) amortises: records of calls that finish while a batch write is in flight wait for the next
 * one, which writes them all (BatchWriteItem, 25 a call), so under concurrent load a record costs a
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

/** Group commit (see AuditSink): one batch write in flight at a time; the next takes everything queued meanwhile. */
export class BufferedAuditSink implements AuditSink {
  private buf: { item: Item; done: () => void }[] = [];
  private writing: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  constructor(private readonly table: Table, private readonly retryMs = 1000, private readonly onError = (e: unknown) => console.error('audit flush failed', e)) {}

  record(r: Omit<AuditRecord, 'id'>): Promise<void> {
    return new Promise<void>((done) => {
      this.buf.push({ item: auditItem(r), done });
      this.kick();
    });
  }

  /** Resolves when every record queued before the call is stored (or the store refused it). */
  async flush(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    this.kick();
    await this.writing;
  }

  /** Starts a drain unless one runs (a drain always awaits a write first, so `writing` is set before it ends). */
  private kick() {
    if (!this.writing && this.buf.length) this.writing = this.drain();
  }

  /** Writes batches until the queue is empty; a failed batch goes back to the queue and is retried later. */
  private async drain(): Promise<void> {
    try {
      while (this.buf.length) {
        const batch = this.buf;
        this.buf = [];
        try {
          await this.table.batchPut(batch.map((b) => b.item));
        } catch (e) {
          this.onError(e);
          // Kept, in order, for the next write; the callers are not held while the store is down.
          this.buf.unshift(...batch.map((b) => ({ item: b.item, done: () => undefined })));
          batch.forEach((b) => b.done());
          this.retry ??= setTimeout(() => {
            this.retry = undefined;
            this.kick();
          }, this.retryMs);
          this.retry.unref?.();
          return;
        }
        batch.forEach((b) => b.done());
      }
    } finally {
      this.writing = undefined;
    }
  }
}
