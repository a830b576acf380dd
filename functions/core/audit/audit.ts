import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import type { Item, QueryPage, Table } from '../../ports/table.js';

export const auditRecordSchema = z.object({
  id: z.string(),
  ts: z.string(),
  request_id: z.string(),
  tenant_id: z.string(),
  principal: z.object({ type: z.enum(['key', 'user', 'system']), id: z.string() }),
  surface: z.enum(['api', 'console', 'mcp', 'scheduler']),
  action: z.string(),
  resource: z.string().nullable(),
  outcome: z.enum(['allowed', 'denied', 'error']),
  status: z.number().int(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

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

export interface AuditQuery {
  tenantId: string;
  limit: number;
  cursor?: string;
  action?: string;
  outcome?: string;
}

/**
 * Newest first, filtered by action/outcome. Each page asks only for as many records as are
 * still needed, so every record read is either returned or filtered out and the page cursor
 * is exact (no record is skipped between pages).
 */
export async function listAudit(table: Table, q: AuditQuery): Promise<{ data: AuditRecord[]; next_cursor: string | null }> {
  const data: AuditRecord[] = [];
  let cursor: string | null | undefined = q.cursor;
  for (let pages = 0; pages < 50 && data.length < q.limit; pages++) {
    const page: QueryPage = await table.query({ pk: keys.auditPartition(q.tenantId), descending: true, limit: q.limit - data.length, cursor: cursor ?? undefined });
    for (const i of page.items) {
      const rec = auditRecordSchema.parse(i);
      if (q.action && rec.action !== q.action) continue;
      if (q.outcome && rec.outcome !== q.outcome) continue;
      data.push(rec);
    }
    cursor = page.cursor;
    if (!cursor) break;
  }
  return { data, next_cursor: cursor ?? null };
}
