import { badRequest } from '../errors.js';
import { lazyEngine } from '../lazy-engine.js';

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

/** Validate a 5-field UTC cron expression (minute hour day-of-month month day-of-week). */
export function parseCron(expr: string): void {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5 || !fields.every((f) => FIELD.test(f)))
    throw badRequest('schedule must be a 5-field cron expression in UTC, e.g. "0 8 * * *" for 08:00 daily', [{ path: 'body.schedule', message: 'expected 5 fields' }]);
  try {
    cronParser().parse(expr, { tz: 'UTC' }).next();
  } catch (e) {
    throw badRequest(`schedule is not a valid cron expression: ${(e as Error).message}`, [{ path: 'body.schedule', message: (e as Error).message }]);
  }
}

/** Next fire time strictly after `from`. */
export function nextRun(expr: string, from: Date): Date {
  return cronParser().parse(expr, { tz: 'UTC', currentDate: from }).next().toDate();
}
