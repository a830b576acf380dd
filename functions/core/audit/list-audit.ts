import { keys } from '../table-keys.js';
import { auditRecordSchema, type AuditRecord } from './audit-record.js';
import type { Table } from '../../ports/table.js';
import { listFiltered } from '../filtered-list.js';

export interface AuditQuery {
  tenantId: string;
  limit: number;
  cursor?: string;
  action?: string;
  outcome?: string;
}

/** Newest first, filtered by action/outcome (exact cursors: core/filtered-list.ts). */
export function listAudit(table: Table, q: AuditQuery): Promise<{ data: AuditRecord[]; next_cursor: string | null }> {
  return listFiltered(table, { pk: keys.auditPartition(q.tenantId), descending: true }, q, (i) => {
    const rec = auditRecordSchema.parse(i);
    return (q.action && rec.action !== q.action) || (q.outcome && rec.outcome !== q.outcome) ? undefined : rec;
  });
}
