import { getJob } from '../jobs/jobs.js';
import { fanOut } from '../webhooks/deliveries.js';
import { notFound } from '../errors.js';
import { changeKey, changeRecordSchema, type ChangeRecord } from './snapshot-store.js';
import type { Deps } from '../../runtime.js';

/** API.md event `page.changed`. */
export function pageChangedPayload(r: ChangeRecord) {
  return {
    event: 'page.changed' as const,
    change_id: r.change_id,
    url: r.url,
    tag: r.tag,
    status: r.status,
    detected_at: r.detected_at,
    previous_fetched_at: r.previous_fetched_at,
    added_lines: r.added_lines,
    removed_lines: r.removed_lines,
    fields: r.fields,
    run_id: r.run_id,
    job_id: r.job_id,
  };
}

/** A change record of the tenant. */
export async function getChangeRecord(d: Pick<Deps, 'table'>, tenantId: string, changeId: string): Promise<ChangeRecord> {
  const it = await d.table.get(changeKey(tenantId, changeId), { consistent: true });
  if (!it) throw notFound('Change');
  return changeRecordSchema.parse(it);
}

/**
 * Deliver `page.changed` for one change record: to every endpoint subscribed to it and, when the
 * run belongs to a job, to the job's `webhook_url`; signed and retried like every event (fanOut).
 */
export async function deliverPageChanged(d: Deps, tenantId: string, changeId: string, includeNew = false): Promise<void> {
  const r = await getChangeRecord(d, tenantId, changeId);
  // `new` is announced only where it is the news (a web-search result seen for the first time).
  if (r.status === 'new' && !includeNew) return;
  const job = r.job_id ? await getJob(d.table, tenantId, r.job_id).catch(() => undefined) : undefined; // deleted: registered endpoints only
  await fanOut(d, {
    tenantId,
    event: 'page.changed',
    eventKey: `page.changed:${r.change_id}`,
    payload: pageChangedPayload(r),
    ownUrl: job?.webhook_url ?? null,
    ...(r.job_id ? { jobId: r.job_id } : {}),
    ...(r.run_id ? { runId: r.run_id } : {}),
  });
}
