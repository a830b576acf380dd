import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Cron } from 'croner';
import { nextRun, parseCron, toEventBridgeCron } from '../../../functions/core/jobs/cron.js';

/**
 * An independent reading of EventBridge Scheduler's cron(min hour dom month dow year), as its
 * reference documents it: lists, ranges, `*`, `start/step` (to the field's end), `?` for "any"
 * in one of the day fields, weekdays 1-7 from Sunday, and no `/` in day-of-week.
 */
function eventBridgeTimes(expression: string, from: Date, count: number): Date[] {
  const m = /^cron\((.+)\)$/.exec(expression);
  if (!m) throw new Error(`not a cron(): ${expression}`);
  const f = m[1]!.split(' ');
  expect(f).toHaveLength(6);
  const [min, hour, dom, mon, dow, year] = f as [string, string, string, string, string, string];
  expect(year).toBe('*');
  expect(dom === '?' || dow === '?').toBe(true);
  expect(dom === '?' && dow === '?').toBe(false);
  expect(dow).not.toContain('/');
  const field = (text: string, lo: number, hi: number): Set<number> => {
    const out = new Set<number>();
    if (text === '?' || text === '*') {
      for (let v = lo; v <= hi; v++) out.add(v);
      return out;
    }
    for (const part of text.split(',')) {
      expect(part).toMatch(/^\d+(-\d+|\/\d+)?$/);
      if (part.includes('/')) {
        const [a, n] = part.split('/').map(Number) as [number, number];
        for (let v = a; v <= hi; v += n) out.add(v);
      } else if (part.includes('-')) {
        const [a, b] = part.split('-').map(Number) as [number, number];
        expect(a).toBeLessThanOrEqual(b);
        for (let v = a; v <= b; v++) out.add(v);
      } else out.add(Number(part));
    }
    for (const v of out) expect(v >= lo && v <= hi).toBe(true);
    return out;
  };
  const mins = [...field(min, 0, 59)].sort((a, b) => a - b);
  const hours = [...field(hour, 0, 23)].sort((a, b) => a - b);
  const doms = field(dom, 1, 31);
  const months = field(mon, 1, 12);
  const dows = field(dow, 1, 7);
  const out: Date[] = [];
  const day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  for (let i = 0; i < 366 * 60 && out.length < count; i++, day.setUTCDate(day.getUTCDate() + 1)) {
    if (!months.has(day.getUTCMonth() + 1) || !doms.has(day.getUTCDate()) || !dows.has(day.getUTCDay() + 1)) continue;
    for (const h of hours)
      for (const mi of mins) {
        const t = new Date(day.getTime() + (h * 60 + mi) * 60_000);
        if (t > from && out.length < count) out.push(t);
      }
  }
  return out;
}

// Five-field expressions as people write them: *, values, ranges, steps, lists, names, 7 for Sunday.
const field = (lo: number, hi: number, names?: readonly string[]) => {
  const v = fc.integer({ min: lo, max: hi });
  const range = fc.tuple(v, v).map(([a, b]) => (a <= b ? `${a}-${b}` : `${b}-${a}`));
  const atom = fc.oneof(v.map(String), range, ...(names ? [fc.constantFrom(...names)] : []));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('*') },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: hi - lo }).map((n) => `*/${n}`) },
    { weight: 3, arbitrary: atom },
    { weight: 1, arbitrary: fc.tuple(range, fc.integer({ min: 1, max: 6 })).map(([r, n]) => `${r}/${n}`) },
    { weight: 2, arbitrary: fc.array(atom, { minLength: 2, maxLength: 3 }).map((a) => a.join(',')) },
  );
};
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const minute = field(0, 59);
const hour = field(0, 23);
// Days 1-28 so that every generated day exists in every month (30 Feb never fires anywhere).
const dom = field(1, 28);
const month = field(1, 12, MONTHS);
const dow = field(0, 7, DAYS);
const translatable = fc.oneof(
  fc.tuple(minute, hour, dom, month, fc.constant('*')),
  fc.tuple(minute, hour, fc.constant('*'), month, dow),
).map((f) => f.join(' '));

const accepted = (expr: string) => {
  try {
    parseCron(expr);
    return true;
  } catch {
    return false;
  }
};
const FROM = new Date('2026-11-22T08:17:00.000Z');
const croner = (expr: string) => new Cron(expr, { utcOffset: 0, mode: '5-part' });

describe('EventBridge cron translation', () => {
  it('fires at the same 50 next times as croner for generated five-field expressions', () => {
    let checked = 0;
    fc.assert(
      fc.property(translatable, (expr) => {
        // Only schedules the API accepts (cron-parser also refuses some oddities such as "0,0": 400 invalid_request).
        fc.pre(accepted(expr));
        const expected = croner(expr).nextRuns(50, FROM).map((d) => d.toISOString());
        const eb = toEventBridgeCron(expr);
        const got = eventBridgeTimes(eb, FROM, 50).map((d) => d.toISOString());
        expect(got, `${expr} -> ${eb}`).toEqual(expected);
        // What the API shows as next_run_at is the first of those times.
        expect(nextRun(expr, FROM).toISOString(), expr).toBe(expected[0]);
        checked++;
      }),
      { numRuns: 300, seed: 8 },
    );
    expect(checked).toBe(300);
  }, 60_000); // CPU-bound: 300 x 50 fire times from three implementations

  it('translates the expressions that used to go wrong', () => {
    expect(toEventBridgeCron('0 8 * * */2')).toBe('cron(0 8 ? * 1,3,5,7 *)'); // was */3
    expect(toEventBridgeCron('30 6 * * 1')).toBe('cron(30 6 ? * 2 *)');
    expect(toEventBridgeCron('0 8 * * 7')).toBe('cron(0 8 ? * 1 *)');
    expect(toEventBridgeCron('0 8 * * 5-7')).toBe('cron(0 8 ? * 1,6,7 *)');
    expect(toEventBridgeCron('*/15 * * * *')).toBe('cron(0/15 * * * ? *)');
    expect(toEventBridgeCron('0 8 1 * *')).toBe('cron(0 8 1 * ? *)');
    expect(toEventBridgeCron('0 9 * JAN-MAR MON-FRI')).toBe('cron(0 9 ? 1-3 2-6 *)');
  });

  it.each([
    ['0 8 1 * 1', /both day-of-month \("1"\) and day-of-week \("1"\)/],
    ['0 8 */2 * MON', /either matches/],
    ['0 8 L * *', /"L"/],
    ['0 8 * * 1#2', /day-of-week/],
    ['0 8 15W * *', /day-of-month/],
  ])('refuses %s with 400 invalid_schedule saying why', (expr, why) => {
    let err: unknown;
    try {
      toEventBridgeCron(expr);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ status: 400, code: 'invalid_schedule', message: expect.stringMatching(why) });
  });

  it('refuses every expression that restricts both day fields, and only those', () => {
    fc.assert(
      fc.property(minute, hour, dom.filter((d) => d !== '*'), month, dow.filter((d) => d !== '*'), (...f) => {
        expect(() => toEventBridgeCron(f.join(' '))).toThrow(/either matches/);
      }),
      { numRuns: 100, seed: 8 },
    );
  });
});
