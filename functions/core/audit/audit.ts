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
 * Where audit records go. `record` never throws into the request path. The buffered sink
 * (local mode) batches writes off the critical path and flushes on an interval and at
 * shutdown; the direct sink (Lambda) writes before the invocation returns, because a frozen
 * Lambda cannot flush later.
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

export class BufferedAuditSink implements AuditSink {
  private buf: Item[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inflight: Promise<void> = Promise.resolve();
  constructor(private readonly table: Table, private readonly intervalMs = 20, private readonly onError = (e: unknown) => console.error('audit flush failed', e)) {}

  async record(r: Omit<AuditRecord, 'id'>) {
    this.buf.push(auditItem(r));
    if (this.buf.length >= 25) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buf;
    this.buf = [];
    const prev = this.inflight;
    this.inflight = (async () => {
      await prev;
      if (!batch.length) return;
      try {
        await this.table.batchPut(batch);
      } catch (e) {
        this.onError(e);
        this.buf.unshift(...batch); // keep them for the next flush
      }
    })();
    return this.inflight;
  }
}
