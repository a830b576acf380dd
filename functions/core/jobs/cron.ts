import { CronExpressionParser } from 'cron-parser';
import { badRequest } from '../errors.js';

const FIELD = /^[\d*/,\-A-Za-z?LW#]+$/;

/** Validate a 5-field UTC cron expression (minute hour day-of-month month day-of-week). */
export function parseCron(expr: string): void {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5 || !fields.every((f) => FIELD.test(f)))
    throw badRequest('schedule must be a 5-field cron expression in UTC, e.g. "0 8 * * *" for 08:00 daily', [{ path: 'body.schedule', message: 'expected 5 fields' }]);
  try {
    CronExpressionParser.parse(expr, { tz: 'UTC' }).next();
  } catch (e) {
    throw badRequest(`schedule is not a valid cron expression: ${(e as Error).message}`, [{ path: 'body.schedule', message: (e as Error).message }]);
  }
}

/** Next fire time strictly after `from`. */
export function nextRun(expr: string, from: Date): Date {
  return CronExpressionParser.parse(expr, { tz: 'UTC', currentDate: from }).next().toDate();
}

/** EventBridge Scheduler wants 6 fields `cron(min hour dom month dow year)` with one of dom/dow as '?'. */
export function toEventBridgeCron(expr: string): string {
  const [min, hour, dom, mon, dow] = expr.trim().split(/\s+/);
  let d = dom!;
  let w = dow!;
  if (w === '*') w = '?';
  else if (d === '*') d = '?';
  // EventBridge numbers weekdays 1-7 from Sunday; cron numbers them 0-6 from Sunday.
  w = w.replace(/\d+/g, (n) => String((Number(n) % 7) + 1));
  return `cron(${min} ${hour} ${d} ${mon} ${w} *)`;
}
