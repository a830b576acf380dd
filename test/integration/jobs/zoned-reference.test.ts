// In the integration tier, not unit: the reference walks thousands of minutes through Intl (seconds of CPU).
import { describe, expect, it } from 'vitest';
import { nextRun, prevRun } from '../../../functions/core/jobs/cron.js';

// The cheap zoned next run (zoned-cost.test.ts) checked against a plain reference: step minute by
// minute through real instants, read each one's wall time with Intl (no cache), and fire where the
// schedule matches a wall time at its first occurrence (EventBridge Scheduler's reading across
// daylight-saving changes). Around both changes of 2026 in Europe/Berlin and America/New_York.

const walls = new Map<string, Intl.DateTimeFormat>();
const seen = new Map<string, ReturnType<typeof readWall>>();
const wallOf = (ms: number, tz: string) => {
  const k = `${tz}|${ms}`;
  let w = seen.get(k);
  if (!w) seen.set(k, (w = readWall(ms, tz)));
  return w;
};
const readWall = (ms: number, tz: string) => {
  let f = walls.get(tz);
  if (!f) walls.set(tz, (f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short' })));
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, x.value]));
  return { key: `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`, minute: Number(p.minute), hour: Number(p.hour), day: Number(p.day), month: Number(p.month), weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(p.weekday!) };
};
/** One cron field (numbers, *, a-b, /n, lists) against a value. */
const fieldMatches = (field: string, v: number, max: number) =>
  field.split(',').some((part) => {
    const [range, step] = part.split('/');
    const [lo, hi] = range === '*' ? [0, max] : range!.includes('-') ? range!.split('-').map(Number) : [Number(range), step ? max : Number(range)];
    return v >= lo! && v <= hi! && (v - lo!) % Number(step ?? 1) === 0;
  });
const matches = (expr: string, w: ReturnType<typeof wallOf>) => {
  const [mi, ho, dom, mon, dow] = expr.split(' ') as [string, string, string, string, string];
  return fieldMatches(mi, w.minute, 59) && fieldMatches(ho, w.hour, 23) && fieldMatches(dom, w.day, 31) && fieldMatches(mon, w.month, 12) && fieldMatches(dow, w.weekday, 6);
};
/** A fire: the schedule matches the wall time, and that wall time did not already occur (clocks went back). */
const fires = (expr: string, ms: number, tz: string) => {
  const w = wallOf(ms, tz);
  return matches(expr, w) && ![1_800_000, 3_600_000, 7_200_000].some((d) => wallOf(ms - d, tz).key === w.key);
};
const refNext = (expr: string, from: number, tz: string) => {
  for (let m = Math.floor(from / 60_000) * 60_000 + 60_000; ; m += 60_000) if (fires(expr, m, tz)) return new Date(m).toISOString();
};
const refPrev = (expr: string, at: number, tz: string) => {
  for (let m = Math.floor(at / 60_000) * 60_000; ; m -= 60_000) if (fires(expr, m, tz)) return new Date(m).toISOString();
};

const SCHEDULES = ['*/5 * * * *', '30 2 * * *', '0 * * * *', '15,45 1-3 * * *', '59 1 * * *'];
const CHANGES: Array<[string, string]> = [
  ['Europe/Berlin', '2026-03-29T01:00:00Z'], ['Europe/Berlin', '2026-10-25T01:00:00Z'],
  ['America/New_York', '2026-03-08T07:00:00Z'], ['America/New_York', '2026-11-01T06:00:00Z'],
];

describe('zoned next and previous runs agree with a minute-by-minute reference', () => {
  // Deterministic offsets around each change: -26 h to +26 h, odd seconds included.
  const offsets = Array.from({ length: 10 }, (_, i) => ((i * 7919) % 187_200) * 1000 - 93_600_000 + (i % 3) * 17_000);
  for (const [tz, change] of CHANGES)
    it(`${tz} around ${change}`, () => {
      for (const expr of SCHEDULES)
        for (const off of offsets) {
          const from = new Date(change).getTime() + off;
          expect(nextRun(expr, new Date(from), tz).toISOString(), `next ${expr} after ${new Date(from).toISOString()}`).toBe(refNext(expr, from, tz));
          expect(prevRun(expr, new Date(from), tz).toISOString(), `prev ${expr} at ${new Date(from).toISOString()}`).toBe(refPrev(expr, from, tz));
        }
    });
});
