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
  /** A key id, user id or user email. */
  principal?: string;
  since?: string;
  until?: string;
  /** Leave out the records `isRead` says are reads. */
  reads?: 'include' | 'exclude';
  isRead?: (action: string) => boolean;
}

/** Whether a record passes the query's filters (all of them). */
function matches(rec: AuditRecord, q: AuditQuery): boolean {
  if (q.action && rec.action !== q.action) return false;
  if (q.outcome && rec.outcome !== q.outcome) return false;
  if (q.principal && rec.principal.id !== q.principal && rec.principal.email !== q.principal) return false;
  if (q.since && Date.parse(rec.ts) < Date.parse(q.since)) return false;
  if (q.until && Date.parse(rec.ts) >= Date.parse(q.until)) return false;
  if (q.reads === 'exclude' && q.isRead?.(rec.action)) return false;
  return true;
}

/** Newest first, filtered by action, outcome, principal, time and reads (exact cursors: core/filtered-list.ts). */
export function listAudit(table: Table, q: AuditQuery): Promise<{ data: AuditRecord[]; next_cursor: string | null }> {
  return listFiltered(table, { pk: keys.auditPartition(q.tenantId), descending: true }, q, (i) => {
    const rec = auditRecordSchema.parse(i);
    return matches(rec, q) ? rec : undefined;
  });
}
