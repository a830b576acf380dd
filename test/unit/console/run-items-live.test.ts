import { describe, expect, it, vi } from 'vitest';
import { ItemWriter, ITEMS_PER_PAGE, readItems } from '../../../functions/core/runs/run-items.js';
import type { Blobs } from '../../../functions/ports/blobs.js';
import type { RunRecord } from '../../../functions/core/runs/run-record.js';
import type { ScrapeItem } from '../../../functions/core/scrapers/types.js';

/**
 * The Blobs port over a Map (unit tests have no s3rver). With `laterFirst`, each put lands after a
 * delay shorter than the one before, so puts issued together land in reverse order unless the
 * writer waits for each before the next (as S3 gives no order between concurrent writes).
 */
function mapBlobs(opts: { laterFirst?: boolean } = {}): Blobs & { map: Map<string, string> } {
  const map = new Map<string, string>();
  let delay = 40;
  return {
    map,
    async put(bucket, key, body) {
      if (opts.laterFirst) await new Promise((r) => setTimeout(r, (delay = Math.max(0, delay - 0.35))));
      map.set(`${bucket}/${key}`, typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    },
    async get(bucket, key) {
      const v = map.get(`${bucket}/${key}`);
      return v === undefined ? undefined : new TextEncoder().encode(v);
    },
    async delete(bucket, key) {
      map.delete(`${bucket}/${key}`);
    },
  };
}

const item = (i: number) => ({ url: `https://example.com/${i}`, status_code: 200, fetched_at: '2026-01-01T00:00:00Z', data: { i } }) as unknown as ScrapeItem;
const runWith = (itemPages: number) => ({ id: 'run_1', tenant_id: 'ten_1', attempt: 1, item_pages: itemPages }) as RunRecord;

describe('ItemWriter: items readable while the run is running', () => {
  it('writes a partly filled page and counts it, so the first item can be read before the page fills', async () => {
    // Prepare
    const blobs = mapBlobs();
    const pages: Array<[number, number]> = [];
    let clock = 0;
    const w = new ItemWriter(blobs, 'ten_1', 'run_1', 1, async (p, n) => void pages.push([p, n]), undefined, 1000, () => clock);
    // Act
    clock = 5000;
    await w.add(item(0));
    // Assess: item_pages counts the partial page; the item is readable now.
    expect(pages.at(-1)).toEqual([1, 1]);
    const read = await readItems(blobs, runWith(1), 50);
    expect(read.data.map((x) => (x.data as { i: number }).i)).toEqual([0]);
    expect(read.next_cursor).toBeNull();
  });

  it('does not write a partial page more often than the period; the final flush writes the rest', async () => {
    const blobs = mapBlobs();
    const pages: Array<[number, number]> = [];
    const clock = 5000;
    const w = new ItemWriter(blobs, 'ten_1', 'run_1', 1, async (p, n) => void pages.push([p, n]), undefined, 1000, () => clock);
    await w.add(item(0));
    await w.add(item(1));
    await w.add(item(2));
    expect(pages).toEqual([[1, 1]]); // one partial write in the same period
    await w.flush();
    expect(pages.at(-1)).toEqual([1, 3]);
    const read = await readItems(blobs, runWith(1), 50);
    expect(read.data).toHaveLength(3);
  });

  it('a full page is never overwritten by an older partial snapshot, and the next page starts after it', async () => {
    const blobs = mapBlobs({ laterFirst: true });
    let last: [number, number] = [0, 0];
    let clock = 0;
    // Every add writes a partial page (period 0): the worst case for ordering.
    const w = new ItemWriter(blobs, 'ten_1', 'run_1', 1, async (p, n) => void (last = [p, n]), undefined, 0, () => clock++);
    await Promise.all(Array.from({ length: ITEMS_PER_PAGE + 5 }, (_, i) => w.add(item(i))));
    await w.flush();
    expect(last).toEqual([2, ITEMS_PER_PAGE + 5]);
    const all = await readItems(blobs, runWith(2), 500);
    expect(all.data.map((x) => (x.data as { i: number }).i)).toEqual(Array.from({ length: ITEMS_PER_PAGE + 5 }, (_, i) => i));
  });

  it('items that arrive within the period are written at its end, without waiting for the next item', async () => {
    vi.useFakeTimers();
    try {
      const blobs = mapBlobs();
      const pages: Array<[number, number]> = [];
      const w = new ItemWriter(blobs, 'ten_1', 'run_1', 1, async (p, n) => void pages.push([p, n]), undefined, 1000, () => Date.now());
      await w.add(item(0)); // written at once (first of its period)
      await w.add(item(1));
      await w.add(item(2));
      expect(pages).toEqual([[1, 1]]);
      await vi.advanceTimersByTimeAsync(1000);
      expect(pages.at(-1)).toEqual([1, 3]);
      expect((await readItems(blobs, runWith(1), 50)).data).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a page read half-written (a store that overwrites in place, as s3rver does) is read again, never a 500', async () => {
    const blobs = mapBlobs();
    const whole = JSON.stringify([item(0), item(1)]);
    let reads = 0;
    const torn: Blobs = {
      ...blobs,
      async get() {
        reads++;
        // The first two reads catch the rewrite midway.
        return new TextEncoder().encode(reads <= 2 ? whole.slice(0, 20) : whole);
      },
    };
    const read = await readItems(torn, runWith(1), 50);
    expect(read.data).toHaveLength(2);
    expect(reads).toBe(3);
    // A page that never reads whole is a 503 to try again, not a SyntaxError (a 500).
    const broken: Blobs = { ...blobs, async get() { return new TextEncoder().encode('[{"url":'); } };
    await expect(readItems(broken, runWith(1), 50)).rejects.toMatchObject({ status: 503, code: 'results_busy' });
  });
});

