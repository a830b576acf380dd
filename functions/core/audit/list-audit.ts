import { keys } from '../table-keys.js';
import { auditRecordSchema, type AuditRecord } from './audit-record.js';
import type { QueryPage, Table } from '../../ports/table.js';

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
