import { describe, expect, it } from 'vitest';
import { SnapshotStore, type Baseline, type ChangeRecord } from '../../../functions/core/changes/snapshot-store.js';
import type { Table } from '../../../functions/ports/table.js';
import type { Blobs } from '../../../functions/ports/blobs.js';

// The records the store builds (no table calls): what keeps an item under DynamoDB's 400 KB and a
// removed page out of its crawl scope (so it is reported removed once).
const store = new SnapshotStore({} as Table, {} as Blobs, 'ten_1', 'default');
const record = (fields: ChangeRecord['fields']): ChangeRecord => ({
  change_id: 'chg_01jf0000000000000000000000', url: 'https://a.example/p', tag: 'default', status: 'changed', detected_at: '2026-11-28T00:00:00.000Z',
  previous_fetched_at: null, added_lines: 0, removed_lines: 0, fields, run_id: null, job_id: null, previous_key: 'p', current_key: 'c',
});

describe('SnapshotStore records', () => {
  it('keeps a change record small whatever its field values weigh (the snapshot has them all)', () => {
    const huge = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`/items/${i}/description`, { previous: 'x'.repeat(20_000), current: 'y'.repeat(20_000) }]));
    const item = store.changeItem(record(huge));
    expect(Buffer.byteLength(JSON.stringify(item))).toBeLessThan(100 * 1024);
    expect(Object.keys(item.fields as object)).toHaveLength(50);
    expect(store.changeItem(record({ '/price': { previous: '$1', current: '$2' } })).fields).toEqual({ '/price': { previous: '$1', current: '$2' } });
  });

  it('indexes a present baseline under its crawl scope and a removed one nowhere', () => {
    const b: Baseline = { url: 'https://a.example/p', tag: 'default', state: 'present', hash: 'h', snapshot_key: 'k', fetched_at: 't' };
    const present = store.baselineItem(b, { scope: 's1', runId: 'run_1' });
    expect(present).toMatchObject({ gsi1pk: 'TEN#ten_1#SNAPCRAWL#default#s1', seen_run: 'run_1', crawl_scope: 's1' });
    expect(store.baselineItem({ ...b, state: 'removed', crawl_scope: 's1' }).gsi1pk).toBeUndefined();
    // A scrape (no crawl) keeps the page's crawl membership as it was.
    expect(store.baselineItem({ ...b, crawl_scope: 's1', seen_run: 'run_1' })).toMatchObject({ gsi1pk: 'TEN#ten_1#SNAPCRAWL#default#s1', seen_run: 'run_1' });
  });
});
