import { badRequest } from '../errors.js';
import { lazyEngine } from '../lazy-engine.js';
import { cachedWallTime, instantOf, offsetAt } from './zoned-time.js';

// The EventBridge translation lives in its own module, without cron-parser (and its luxon):
// every Lambda's composition root loads it for the scheduler port (see aws-deps.ts).
export { invalidSchedule, toEventBridgeCron } from './eventbridge-cron.js';

type CronEngine = typeof import('./cron-engine.js');

/**
 * cron-parser (with luxon, ~100 KiB), loaded on the first schedule parsed rather than at import:
 * the job functions list, get and delete jobs far more often than they read a schedule.
 */
const cronEngine = lazyEngine<CronEngine>(import.meta.url, 'cron-parser', () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild's lazy module init (lazy-engine.ts)
  require('./cron-engine.js'),
);
const cronParser = (): CronEngine['CronExpressionParser'] => cronEngine().CronExpressionParser;

const FIELD = /^[\d*/,\-A-Za-z?LW#]+$/;

/** Validate a 5-field cron expression (minute hour day-of-month month day-of-week), read in the job's time zone. */
export function parseCron(expr: string): void {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5 || !fields.every((f) => FIELD.test(f)))
    throw badRequest('schedule must be a 5-field cron expression (read in the job\'s timezone, UTC by default), e.g. "0 8 * * *" for 08:00 daily', [{ path: 'body.schedule', message: 'expected 5 fields' }]);
  try {
    cronParser().parse(expr, { tz: 'UTC' }).next();
  } catch (e) {
    throw badRequest(`schedule is not a valid cron expression: ${(e as Error).message}`, [{ path: 'body.schedule', message: (e as Error).message }]);
  }
}

/** Cron ticks a search looks at before giving up (a day of every-minute ticks and then some). */
const MAX_TICKS = 2_000;
/** Longer than any clock shift (at most 2 h anywhere): the span within which one can matter. */
const SHIFT_SPAN_MS = 3 * 3_600_000;

/**
 * Next fire time strictly after `from`, the schedule read in time zone `tz` the way EventBridge
 * Scheduler reads it: a wall time that does not exist (clocks going forward) does not fire that
 * day, and a wall time that exists twice (clocks going back) fires once, at its first occurrence.
 *
 * The cron ticks are stepped as wall times (cron-parser in UTC on wall-clock dates) and each is
 * mapped to the instant it names (its first occurrence). That mapping is strictly increasing, and
 * the wall time of `from` names an instant at or before `from`, so no tick at or before it can be
 * next: the search starts there, and usually the first tick is the answer. Only the ticks of a
 * repeated hour already fired (at their first occurrence) or of a skipped hour are stepped over.
 * Zone offsets come from a cache per quarter hour (zoned-time.ts), so a list of zoned jobs costs
 * a few lookups, not hours of ticks each (issue 37 finding 4).
 */
export function nextRun(expr: string, from: Date, tz = 'UTC'): Date {
  if (tz === 'UTC') return cronParser().parse(expr, { tz: 'UTC', currentDate: from }).next().toDate();
  const ticks = cronParser().parse(expr, { tz: 'UTC', currentDate: cachedWallTime(from, tz) });
  for (let i = 0; i < MAX_TICKS; i++) {
    const at = instantOf(ticks.next().toDate(), tz);
    if (at && at > from) return at;
  }
  throw new Error(`No fire time of "${expr}" in ${tz} found after ${from.toISOString()}`);
}

/**
 * Most recent fire time at or before `at` in time zone `tz` (the tick a late delivery belongs to);
 * see {@link nextRun}. A wall time ahead of the wall time of `at` can still have fired at or before
 * it when clocks went back within the last few hours (its first occurrence was before the shift),
 * so the search starts that shift ahead, and only then.
 */
export function prevRun(expr: string, at: Date, tz = 'UTC'): Date {
  if (tz === 'UTC') return cronParser().parse(expr, { tz: 'UTC', currentDate: new Date(at.getTime() + 1) }).prev().toDate();
  const shiftBack = Math.max(0, offsetAt(at.getTime() - SHIFT_SPAN_MS, tz) - offsetAt(at.getTime(), tz));
  const ticks = cronParser().parse(expr, { tz: 'UTC', currentDate: new Date(cachedWallTime(at, tz).getTime() + shiftBack + 1000) });
  for (let i = 0; i < MAX_TICKS; i++) {
    const t = instantOf(ticks.prev().toDate(), tz);
    if (t && t <= at) return t;
  }
  throw new Error(`No fire time of "${expr}" in ${tz} found before ${at.toISOString()}`);
}
