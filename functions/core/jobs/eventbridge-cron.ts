import { AppError } from '../errors.js';

/** A valid cron expression that EventBridge Scheduler cannot run as written (400 invalid_schedule). */
export const invalidSchedule = (message: string) =>
  new AppError(400, 'invalid_schedule', message, [{ path: 'body.schedule', message }]);

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}
const MINUTE: FieldSpec = { name: 'minute', min: 0, max: 59 };
const HOUR: FieldSpec = { name: 'hour', min: 0, max: 23 };
const DOM: FieldSpec = { name: 'day-of-month', min: 1, max: 31 };
const MONTH: FieldSpec = { name: 'month', min: 1, max: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] };
// Cron counts weekdays 0-6 from Sunday and also accepts 7 for Sunday.
const DOW: FieldSpec = { name: 'day-of-week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] };

const value = (s: string, f: FieldSpec, field: string): number => {
  const byName = f.names?.indexOf(s.toUpperCase()) ?? -1;
  if (byName >= 0) return byName + (f === MONTH ? 1 : 0);
  if (!/^\d+$/.test(s)) throw invalidSchedule(`${f.name} "${field}" uses "${s}", which EventBridge Scheduler cannot run from a 5-field schedule; use numbers, names, *, -, / and ,`);
  const n = Number(s);
  if (n < f.min || n > f.max) throw invalidSchedule(`${f.name} value ${n} is outside ${f.min}-${f.max}`);
  return n;
};

/** The set of values one cron field selects (standard cron semantics). */
function expand(field: string, f: FieldSpec): Set<number> {
  const out = new Set<number>();
  for (const part of field.split(',')) {
    const [range, stepText, ...extra] = part.split('/');
    if (extra.length || range === undefined || range === '') throw invalidSchedule(`${f.name} "${field}" is not a valid step`);
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw invalidSchedule(`${f.name} step "${stepText}" must be a whole number of at least 1`);
    let lo: number;
    let hi: number;
    if (range === '*') [lo, hi] = [f.min, f === DOW ? 6 : f.max];
    else if (range.includes('-')) {
      const [a, b, ...more] = range.split('-');
      if (more.length || !a || !b) throw invalidSchedule(`${f.name} range "${range}" is not valid`);
      [lo, hi] = [value(a, f, field), value(b, f, field)];
      if (lo > hi) throw invalidSchedule(`${f.name} range "${range}" runs backwards`);
    } else {
      lo = value(range, f, field);
      // "a/n" means a, a+n, ... up to the field's end.
      hi = stepText === undefined ? lo : f === DOW ? 6 : f.max;
    }
    for (let v = lo; v <= hi; v += step) out.add(f === DOW ? v % 7 : v);
  }
  if (!out.size) throw invalidSchedule(`${f.name} "${field}" selects no value`);
  return out;
}

/**
 * EventBridge rendering of a value set on [min, max]: `*`, `start/step` (a progression that
 * runs to the field's end), `a-b`, or a list. `stepOk` is false for day-of-week, where
 * EventBridge accepts no `/`.
 */
function render(values: Set<number>, min: number, max: number, stepOk: boolean): string {
  const v = [...values].sort((a, b) => a - b);
  if (v.length === max - min + 1) return '*';
  if (v.length >= 3) {
    const step = v[1]! - v[0]!;
    const progression = v.every((x, i) => i === 0 || x - v[i - 1]! === step);
    if (progression && step === 1) return `${v[0]}-${v[v.length - 1]}`;
    if (progression && stepOk && v[v.length - 1]! + step > max) return `${v[0]}/${step}`;
  }
  return v.join(',');
}

/**
 * Translate a 5-field UTC cron expression to EventBridge Scheduler's `cron(min hour dom month
 * dow year)`, firing at exactly the same times; throws `400 invalid_schedule` saying why when
 * EventBridge cannot express it. Every field is expanded to the values it selects and written
 * back in a form EventBridge accepts, so steps, names, 7-for-Sunday and weekday numbering
 * (EventBridge counts 1-7 from Sunday) cannot leak through unconverted.
 *
 * Standard cron fires when day-of-month OR day-of-week matches if both are restricted;
 * EventBridge requires one of them to be `?`, so such an expression is refused rather than
 * silently turned into an AND.
 */
export function toEventBridgeCron(expr: string): string {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) throw invalidSchedule('schedule must have 5 fields: minute hour day-of-month month day-of-week');
  const [min, hour, dom, mon, dow] = fields as [string, string, string, string, string];
  if (dom !== '*' && dow !== '*')
    throw invalidSchedule(
      `schedule restricts both day-of-month ("${dom}") and day-of-week ("${dow}"); cron then fires when either matches, which EventBridge Scheduler cannot express. Use * for one of them (or create two jobs)`,
    );
  const minutes = render(expand(min, MINUTE), 0, 59, true);
  const hours = render(expand(hour, HOUR), 0, 23, true);
  const days = expand(dom, DOM);
  const months = render(expand(mon, MONTH), 1, 12, true);
  // EventBridge numbers weekdays 1-7 from Sunday; cron numbers them 0-6 from Sunday.
  const weekdays = new Set([...expand(dow, DOW)].map((d) => d + 1));
  const [d, w] = dow === '*' ? [render(days, 1, 31, true), '?'] : ['?', render(weekdays, 1, 7, false)];
  return `cron(${minutes} ${hours} ${d} ${months} ${w} *)`;
}

/**
 * The shortest time between two fires of a 5-field schedule, in seconds, read on the wall clock
 * of its time zone (a clock change can bring two fires of that day up to an hour closer). Fires
 * within a day are the selected hours times the selected minutes; from the last fire of a day to
 * the first of the next counts when two consecutive days can both fire (both day fields `*`,
 * two neighbouring weekdays, two neighbouring days of the month, or the 1st with a month end).
 * A schedule that fires at most once a day on days that never neighbour reports two days (a lower
 * bound, which is all a floor needs). Callers validate the expression first (toEventBridgeCron).
 */
export function minIntervalSeconds(expr: string): number {
  const [min, hour, dom, , dow] = expr.trim().split(/\s+/) as [string, string, string, string, string];
  const minutes = [...expand(min, MINUTE)].sort((a, b) => a - b);
  const hours = [...expand(hour, HOUR)].sort((a, b) => a - b);
  const times = hours.flatMap((h) => minutes.map((m) => h * 60 + m));
  let gap = Infinity;
  for (let i = 1; i < times.length; i++) gap = Math.min(gap, times[i]! - times[i - 1]!);
  const days = expand(dom, DOM);
  const weekdays = expand(dow, DOW);
  const consecutiveDays =
    (dom === '*' && dow === '*') ||
    (dow !== '*' && [...weekdays].some((d) => weekdays.has((d + 1) % 7))) ||
    (dom !== '*' && ([...days].some((d) => days.has(d + 1)) || (days.has(1) && [28, 29, 30, 31].some((d) => days.has(d)))));
  gap = Math.min(gap, consecutiveDays ? 1440 - times[times.length - 1]! + times[0]! : 2 * 1440);
  return gap * 60;
}
