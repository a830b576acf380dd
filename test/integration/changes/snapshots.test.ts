import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../jobs/harness.js';
import { ChangeTracker, type TrackedPage } from '../../../functions/core/changes/change-tracker.js';
import { setCompareDeadline } from '../../../functions/core/changes/compare-budgeted.js';
import { dropBaseline, listChanges } from '../../../functions/core/changes/change-history.js';
import { MAX_TAGS_PER_URL } from '../../../functions/core/changes/snapshot-store.js';
import { budgetStats, closeBudgetPool } from '../../../functions/core/limits/budget-pool.js';
import { putStorageSettings } from '../../../functions/core/sync/settings.js';
import { sweepRetention } from '../../../functions/core/sync/retention.js';

// Change tracking's state on dynalite + s3rver (issue 37 findings 1 and 7): the comparison runs
// on the budget pool, a URL has at most MAX_TAGS_PER_URL tags, a baseline can be dropped with its
// history, and snapshots follow the tenant's retention.
let h: Harness;
beforeAll(async () => void (h = await startHarness()));
afterAll(async () => {
  setCompareDeadline();
  await closeBudgetPool();
  await h?.close();
});

const T = 'ten_snapshots';
const tracker = (tag?: string) => new ChangeTracker(h.deps, { tenantId: T, options: tag ? { tag } : undefined, runId: null, jobId: null });
const page = (url: string, body: string): TrackedPage => ({ url, fetched_at: new Date().toISOString(), status_code: 200, markdown: `# Lamp\n\n${body}\n`, structured: null });
const blobExists = async (key: string) => (await h.deps.blobs.get('results', key)) !== undefined;

describe('the comparison on the budget pool', () => {
  it('compares on a budget thread: new, then same for noise, then changed', async () => {
    const before = budgetStats.tasks;
    const t = tracker('budget');
    expect((await t.track(page('https://shop.example/lamp', '_Updated 5 minutes ago_ · *1699 views*\n\nPrice: $49'))).status).toBe('new');
    expect((await t.track(page('https://shop.example/lamp', '_Updated 2 hours ago_ · *1712 views*\n\nPrice: $49'))).status).toBe('same');
    const changed = await t.track(page('https://shop.example/lamp', '_Updated 3 hours ago_ · *1800 views*\n\nPrice: $44'));
    expect(changed.status).toBe('changed');
    expect(changed.diff).toContain('+Price: $44');
    // One task to prepare each page, one more to compare the changed one with its baseline.
    expect(budgetStats.tasks - before).toBe(4);
  });

  it('a comparison past its budget leaves the page unavailable and the baseline as it was', async () => {
    const t = tracker('overrun');
    const url = 'https://shop.example/big';
    expect((await t.track(page(url, 'one line'))).status).toBe('new');
    const overruns = budgetStats.overruns;
    setCompareDeadline(1);
    try {
      const lines = Array.from({ length: 60_000 }, (_, i) => `Line ${i} posted ${i % 50} minutes ago by someone, viewed ${i} times`).join('\n');
      expect((await t.track(page(url, lines))).status).toBe('unavailable');
    } finally {
      setCompareDeadline();
    }
    expect(budgetStats.overruns).toBe(overruns + 1);
    expect((await t.track(page(url, 'one line'))).status).toBe('same');
  });
});

describe('tags per URL and dropping a baseline', () => {
  it(`admits ${MAX_TAGS_PER_URL} tags for one URL, answers 409 change_tag_limit past them, and a dropped tag frees its place`, async () => {
    const url = 'https://shop.example/tags';
    for (let i = 0; i < MAX_TAGS_PER_URL; i++) expect((await tracker(`t${i}`).track(page(url, 'same text'))).status).toBe('new');
    // A tag the URL already has is no new tag.
    expect((await tracker('t0').track(page(url, 'same text'))).status).toBe('same');
    await expect(tracker('one-more').track(page(url, 'same text'))).rejects.toMatchObject({ status: 409, code: 'change_tag_limit' });
    // Another URL is not affected.
    expect((await tracker('one-more').track(page('https://shop.example/other', 'x'))).status).toBe('new');

    const dropped = await dropBaseline(h.deps, T, { url, tag: 't3' });
    expect(dropped).toEqual({ url, tag: 't3', baseline: true, changes: 1, snapshots: 1 });
    expect((await tracker('one-more').track(page(url, 'same text'))).status).toBe('new');
    await expect(dropBaseline(h.deps, T, { url, tag: 't3' })).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('dropping a baseline deletes its change records and snapshots; the next fetch is new', async () => {
    const url = 'https://shop.example/drop';
    const t = tracker('drop');
    await t.track(page(url, 'Price: $10'));
    await t.track(page(url, 'Price: $11'));
    const history = (await listChanges(h.deps.table, T, { url, tag: 'drop', limit: 10 })).data;
    expect(history.map((c) => c.status)).toEqual(['changed', 'new']);
    const keys = await Promise.all(history.map(async (c) => (await h.deps.table.get({ pk: `TEN#${T}`, sk: `CHG#${c.change_id}` }))!.current_key as string));
    expect(await Promise.all(keys.map(blobExists))).toEqual([true, true]);
    expect(await dropBaseline(h.deps, T, { url, tag: 'drop' })).toMatchObject({ baseline: true, changes: 2, snapshots: 2 });
    expect((await listChanges(h.deps.table, T, { url, tag: 'drop', limit: 10 })).data).toEqual([]);
    expect(await Promise.all(keys.map(blobExists))).toEqual([false, false]);
    expect((await tracker('drop').track(page(url, 'Price: $11'))).status).toBe('new');
  });
});

describe('snapshots under the tenant retention', () => {
  it('the retention sweep deletes change records and snapshots detected before the cutoff, and a baseline whose snapshot went', async () => {
    const R = 'ten_retention';
    const tr = (tag: string) => new ChangeTracker(h.deps, { tenantId: R, options: { tag }, runId: null, jobId: null });
    await tr('old').track(page('https://shop.example/old', 'Old text'));
    const cutoff = Date.now() + 1;
    while (Date.now() <= cutoff) {
      /* the next change id must fall in a later millisecond than the cutoff */
    }
    await tr('new').track(page('https://shop.example/new', 'New text'));
    const all = async () => (await listChanges(h.deps.table, R, { limit: 10 })).data.map((c) => c.url);
    expect(await all()).toEqual(['https://shop.example/new', 'https://shop.example/old']);
    const [newer, older] = (await listChanges(h.deps.table, R, { limit: 10 })).data;
    const snapshotOf = async (id: string) => (await h.deps.table.get({ pk: `TEN#${R}`, sk: `CHG#${id}` }))!.current_key as string;
    const [newKey, oldKey] = [await snapshotOf(newer.change_id), await snapshotOf(older.change_id)];

    await putStorageSettings(h.deps, R, { retention_days: 7 }, new Date());
    // Without a policy nothing goes; with one, only what was detected before now - 7 days.
    const sweepAt = new Date(cutoff + 7 * 86_400_000);
    expect(await sweepRetention(h.deps, R, sweepAt)).toEqual({ deleted: 1, more: false });
    expect(await all()).toEqual(['https://shop.example/new']);
    expect([await blobExists(oldKey), await blobExists(newKey)]).toEqual([false, true]);
    // The old page's baseline went with its snapshot: its next fetch is new (no page.changed).
    expect((await tr('old').track(page('https://shop.example/old', 'Old text'))).status).toBe('new');
    expect((await tr('new').track(page('https://shop.example/new', 'New text'))).status).toBe('same');
    expect(await sweepRetention(h.deps, R, sweepAt)).toEqual({ deleted: 0, more: false });
  });
});
