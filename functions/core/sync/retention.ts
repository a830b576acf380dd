import { keys } from '../table-keys.js';
import { log } from '../log.js';
import { deleteResultFile, resultFileSchema } from '../storage/result-files.js';
import { getStorageSettings, RETENTION_INDEX } from './settings.js';
import { sweepSnapshots } from '../changes/snapshot-retention.js';
import type { Deps } from '../../runtime.js';
import type { Table } from '../../ports/table.js';

// The jobs queue's messages live with every other queue message (core/queue-messages.ts).
export { storageSweepMessage, type StorageSweep } from '../queue-messages.js';

/** Tenants that configured `retention_days` (Settings > Storage). */
export async function tenantsWithRetention(table: Table): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await table.query({ index: 'gsi1', pk: RETENTION_INDEX, limit: 200, cursor });
    for (const i of page.items) out.push(String(i.gsi1sk));
    cursor = page.cursor ?? undefined;
  } while (cursor);
  return out;
}

/**
 * Delete the tenant's result files older than its `retention_days` (SPEC.md 8: kept until deleted
 * or until a configured retention policy removes them), and its change records and snapshots
 * detected before then (changes/snapshot-retention.ts). Stops after `maxDeletes` so one call stays
 * within a worker's time budget; `more` says another sweep is needed.
 */
export async function sweepRetention(d: Deps, tenantId: string, now: Date, opts: { maxDeletes?: number } = {}): Promise<{ deleted: number; more: boolean }> {
  const { retention_days } = await getStorageSettings(d.table, tenantId);
  if (!retention_days) return { deleted: 0, more: false };
  const cutoff = now.getTime() - retention_days * 86_400_000;
  const max = opts.maxDeletes ?? 500;
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await d.table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: keys.recordPrefix('FILE'), limit: 200, cursor });
    for (const item of page.items) {
      const f = resultFileSchema.parse(item);
      if (Date.parse(f.created_at) >= cutoff) continue;
      if (deleted >= max) return { deleted, more: true };
      await deleteResultFile(d.table, d.blobs, tenantId, f.key).catch((err) => {
        if ((err as { status?: number }).status !== 404) throw err; // deleted meanwhile
      });
      deleted++;
    }
    cursor = page.cursor ?? undefined;
  } while (cursor);
  if (deleted) log.info('retention sweep deleted result files', { tenant_id: tenantId, deleted, retention_days });
  const changes = await sweepSnapshots(d, tenantId, cutoff, max - deleted);
  if (changes.deleted) log.info('retention sweep deleted change records and snapshots', { tenant_id: tenantId, deleted: changes.deleted, retention_days });
  return { deleted: deleted + changes.deleted, more: changes.more };
}
