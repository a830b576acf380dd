import * as z from 'zod';
import { keys } from '../table-keys.js';
import { auditRecordSchema, type AuditRecord } from './audit-record.js';
import { auditRecordsIn } from './audit.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import type { Table } from '../../ports/table.js';

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

/** At most this many table pages are read for one API page (a filter that matches nothing stops). */
const MAX_PAGES = 50;

/** Below every audit sort key (they start with an ISO timestamp). */
const SK_FLOOR = ' ';

/**
 * Where the next page starts: in the item whose sort key is `sk` (a pack or a single record),
 * after its first `skip` records. Bound to the tenant's audit list (core/cursor.ts).
 */
const auditCursor = z.strictObject({ sk: z.string().min(1).max(512), skip: z.int().min(0).max(100_000) });

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

/**
 * Newest first, filtered by action, outcome, principal, time and reads. The partition holds single
 * records and packs of them (audit.ts); each is read in sort-key order and its records in theirs.
 * Every record read is either returned or filtered out, and the cursor names the exact record
 * the next page starts at, inside a pack too, so no record is skipped or repeated between pages.
 */
export async function listAudit(table: Table, q: AuditQuery): Promise<{ data: AuditRecord[]; next_cursor: string | null }> {
  const binding = { list: 'audit', scope: q.tenantId };
  const resume = q.cursor ? decodeCursor(binding, q.cursor, auditCursor) : undefined;
  const spec = { pk: keys.auditPartition(q.tenantId), descending: true, ...(resume ? { skBetween: [SK_FLOOR, resume.sk] as [string, string] } : {}) };
  const data: AuditRecord[] = [];
  let tableCursor: string | undefined;
  let after = resume;
  for (let i = 0; i < MAX_PAGES && data.length < q.limit; i++) {
    // Each item holds at least one record; the resumed one may have none left.
    const page = await table.query({ ...spec, limit: q.limit - data.length + (i === 0 && resume ? 1 : 0), cursor: tableCursor });
    for (const it of page.items) {
      const recs = auditRecordsIn(it);
      for (let j = resume && it.sk === resume.sk ? resume.skip : 0; j < recs.length; j++) {
        if (data.length >= q.limit) return { data, next_cursor: encodeCursor(binding, { sk: it.sk, skip: j }) };
        const rec = auditRecordSchema.parse(recs[j]);
        if (matches(rec, q)) data.push(rec);
      }
      after = { sk: it.sk, skip: recs.length };
    }
    if (!page.cursor) return { data, next_cursor: null };
    tableCursor = page.cursor;
  }
  return { data, next_cursor: after ? encodeCursor(binding, after) : null };
}
