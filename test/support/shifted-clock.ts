/**
 * Moves this process's wall clock forward: `Date.now()` and `new Date()` (and `Date()`) read the
 * real time plus an offset, and go on ticking with it; timers, `performance.now()`, other
 * processes and threads are untouched. For a test of something that waits for a wall-clock instant
 * (a schedule's next whole minute): the clock is moved to just before it, and the code under test
 * reads it as it always does, through `Date`. Forward only, so nothing sees time go back while the
 * test runs; `restoreClock` (after the service under test has stopped) puts the real Date back.
 * Every Date object is still a real one (`instanceof Date` holds for all of them).
 */
const RealDate = globalThis.Date;
let offset = 0;

const Shifted = new Proxy(RealDate, {
  construct(target, args, newTarget) {
    return args.length ? Reflect.construct(target, args, newTarget) : Reflect.construct(target, [RealDate.now() + offset], newTarget);
  },
  apply() {
    return new RealDate(RealDate.now() + offset).toString();
  },
  get(target, prop, receiver) {
    if (prop === 'now') return () => RealDate.now() + offset;
    return Reflect.get(target, prop, receiver);
  },
});

/** From now on this process's clock reads `at` (a later instant than the real time) and ticks on from there. */
export function shiftClockTo(at: Date): void {
  const by = at.getTime() - RealDate.now();
  if (by < offset) throw new Error(`shiftClockTo(${at.toISOString()}) would move the clock back`);
  offset = by;
  globalThis.Date = Shifted;
}

/** The real clock again. */
export function restoreClock(): void {
  offset = 0;
  globalThis.Date = RealDate;
}
