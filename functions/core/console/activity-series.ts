/**
 * Monitoring over time: per-hour counts of runs, queries, pages and errors, success rates and
 * duration percentiles, computed from the records of a window. Pure functions (no I/O), so the
 * console's charts show exactly what this module computes and tests can check it on data.
 */

/** The fields of a run record this module reads. */
export interface RunSample {
  created_at: string;
  started_at?: string | null;
  finished_at?: string | null;
  status: string;
  progress: { pages_done: number };
}

/** The fields of a query record this module reads. */
export interface QuerySample {
  created_at: string;
  completed_at?: string | null;
  status: string;
}

/** One time bucket; `t` is the bucket start (ISO 8601). */
export interface ActivityBucket {
  t: string;
  runs: number;
  queries: number;
  pages: number;
  errors: number;
}

export interface Percentiles {
  count: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

export interface Activity {
  bucket_seconds: number;
  buckets: ActivityBucket[];
  /** Share of finished runs/queries that succeeded (0..1), null when none finished. */
  success_rate: { runs: number | null; queries: number | null };
  durations: { runs: Percentiles; queries: Percentiles };
}

const RUN_ERRORS = new Set(['failed', 'timed_out', 'blocked']);
const RUN_FINISHED = new Set(['succeeded', 'failed', 'timed_out', 'blocked', 'cancelled']);

/** Nearest-rank percentile of sorted values (p in 0..100). */
export function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const percentiles = (values: number[]): Percentiles => {
  const sorted = values.filter((v) => Number.isFinite(v) && v >= 0).sort((a, b) => a - b);
  return { count: sorted.length, p50_ms: percentile(sorted, 50), p95_ms: percentile(sorted, 95) };
};

const ms = (from?: string | null, to?: string | null) => (from && to ? Date.parse(to) - Date.parse(from) : NaN);

/**
 * Buckets `runs` and `queries` created in [since, until) by `bucketSeconds`; a record counts in
 * the bucket of its creation; its pages and errors count there too. Runs' durations are from
 * start (or creation) to finish, queries' from creation to completion.
 */
export function activitySeries(
  runs: RunSample[],
  queries: QuerySample[],
  window: { since: Date; until: Date },
  bucketSeconds = 3600,
): Activity {
  const size = bucketSeconds * 1000;
  const start = Math.floor(window.since.getTime() / size) * size;
  const n = Math.max(1, Math.ceil((window.until.getTime() - start) / size));
  const buckets: ActivityBucket[] = Array.from({ length: n }, (_, i) => ({ t: new Date(start + i * size).toISOString(), runs: 0, queries: 0, pages: 0, errors: 0 }));
  const at = (iso: string) => {
    const i = Math.floor((Date.parse(iso) - start) / size);
    return i >= 0 && i < n ? buckets[i] : undefined;
  };
  for (const r of runs) {
    const b = at(r.created_at);
    if (!b) continue;
    b.runs++;
    b.pages += r.progress.pages_done;
    if (RUN_ERRORS.has(r.status)) b.errors++;
  }
  for (const q of queries) {
    const b = at(q.created_at);
    if (!b) continue;
    b.queries++;
    if (q.status === 'failed') b.errors++;
  }
  const finishedRuns = runs.filter((r) => RUN_FINISHED.has(r.status) && r.status !== 'cancelled');
  const finishedQueries = queries.filter((q) => q.status === 'completed' || q.status === 'failed');
  const rate = (ok: number, all: number) => (all ? ok / all : null);
  return {
    bucket_seconds: bucketSeconds,
    buckets,
    success_rate: {
      runs: rate(finishedRuns.filter((r) => r.status === 'succeeded').length, finishedRuns.length),
      queries: rate(finishedQueries.filter((q) => q.status === 'completed').length, finishedQueries.length),
    },
    durations: {
      runs: percentiles(finishedRuns.map((r) => ms(r.started_at ?? r.created_at, r.finished_at))),
      queries: percentiles(finishedQueries.map((q) => ms(q.created_at, q.completed_at))),
    },
  };
}
