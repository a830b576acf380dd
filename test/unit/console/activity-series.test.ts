import { describe, expect, it } from 'vitest';
import { activitySeries, percentile } from '../../../functions/core/console/activity-series.js';

const until = new Date('2026-11-22T12:00:00.000Z');
const since = new Date(until.getTime() - 24 * 3600_000);
const run = (created: string, status: string, pages: number, durS: number | null) => ({
  created_at: created,
  started_at: created,
  finished_at: durS === null ? null : new Date(Date.parse(created) + durS * 1000).toISOString(),
  status,
  progress: { pages_done: pages },
});

describe('activity series (monitoring charts)', () => {
  it('buckets runs, queries, pages and errors by hour of creation', () => {
    const a = activitySeries(
      [run('2026-11-22T10:05:00.000Z', 'succeeded', 3, 10), run('2026-11-22T10:55:00.000Z', 'failed', 1, 20), run('2026-11-21T09:00:00.000Z', 'succeeded', 9, 5)],
      [{ created_at: '2026-11-22T11:10:00.000Z', completed_at: '2026-11-22T11:10:04.000Z', status: 'failed' }],
      { since, until },
    );
    expect(a.buckets).toHaveLength(24);
    const b10 = a.buckets.find((b) => b.t === '2026-11-22T10:00:00.000Z')!;
    expect(b10).toEqual({ t: '2026-11-22T10:00:00.000Z', runs: 2, queries: 0, pages: 4, errors: 1 });
    const b11 = a.buckets.find((b) => b.t === '2026-11-22T11:00:00.000Z')!;
    expect(b11).toMatchObject({ queries: 1, errors: 1 });
    // The run created before the window is outside every bucket.
    expect(a.buckets.reduce((n, b) => n + b.runs, 0)).toBe(2);
  });

  it('computes success rates and nearest-rank p50/p95 durations of finished work', () => {
    const runs = Array.from({ length: 20 }, (_, i) => run(`2026-11-22T11:${String(i).padStart(2, '0')}:00.000Z`, i < 15 ? 'succeeded' : 'failed', 1, i + 1));
    runs.push(run('2026-11-22T11:30:00.000Z', 'running', 0, null));
    const a = activitySeries(runs, [], { since, until });
    expect(a.success_rate.runs).toBe(0.75);
    expect(a.success_rate.queries).toBeNull();
    expect(a.durations.runs).toEqual({ count: 20, p50_ms: 10_000, p95_ms: 19_000 });
    expect(a.durations.queries).toEqual({ count: 0, p50_ms: null, p95_ms: null });
  });

  it('percentile uses the nearest rank', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 95)).toBe(4);
    expect(percentile([], 50)).toBeNull();
  });
});
