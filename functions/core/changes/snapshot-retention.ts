import { encodeTime } from 'ulid';
import { keys } from '../table-keys.js';
import { CHANGE_PREFIX, changeKey, changeRecordSchema, SnapshotStore } from './snapshot-store.js';
import type { Blobs } from '../../ports/blobs.js';
import type { Table } from '../../ports/table.js';

/**
 * Change tracking under the tenant's retention (Settings > Storage `retention_days`, issue 37
 * finding 7): change records detected before the cutoff are deleted with the snapshot each wrote.
 * A baseline whose snapshot goes that way goes too (retention wins over the baseline: the page's
 * next fetch is `new`, which sends no `page.changed`). Change ids are ULIDs, so the records
 * before the cutoff are one key range of the tenant's partition, oldest first. Stops after
 * `max` records; `more` says another sweep is needed.
 */
export async function sweepSnapshots(d: { table: Table; blobs: Blobs }, tenantId: string, cutoffMs: number, max: number): Promise<{ deleted: number; more: boolean }> {
  if (cutoffMs <= 0) return { deleted: 0, more: false };
  const floor = `${CHANGE_PREFIX}chg_${encodeTime(Math.min(cutoffMs, 2 ** 48 - 1), 10).toLowerCase()}`;
  const stores = new Map<string, SnapshotStore>();
  const storeOf = (tag: string) => stores.get(tag) ?? stores.set(tag, new SnapshotStore(d.table, d.blobs, tenantId, tag)).get(tag)!;
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await d.table.query({ pk: keys.tenantPk(tenantId), skBetween: [`${CHANGE_PREFIX}chg_`, floor], limit: 200, cursor });
    cursor = page.cursor ?? undefined;
    for (const it of page.items) {
      const r = changeRecordSchema.safeParse(it);
      if (!r.success || it.sk === floor) continue;
      if (deleted >= max) return { deleted, more: true };
      const c = r.data;
      if (c.current_key) {
        const store = storeOf(c.tag);
        const b = await store.baseline(c.url);
        if (b && b.snapshot_key === c.current_key) await store.forgetBaseline(c.url);
        await d.blobs.delete('results', c.current_key);
      }
      await d.table.delete(changeKey(tenantId, c.change_id));
      deleted++;
    }
  } while (cursor);
  return { deleted, more: false };
}
