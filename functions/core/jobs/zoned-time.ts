/**
 * Wall-clock time in an IANA time zone, with the platform's own time zone data (Intl), so the
 * core needs no date library for it. A "wall time" is represented as a Date whose UTC fields
 * are the local fields (2026-03-29T02:30 in Berlin is `Date.UTC(2026, 2, 29, 2, 30)`).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/**
 * The canonical IANA name of `tz` (`europe/berlin` -> `Europe/Berlin`), or null when it is not a
 * zone name the platform knows. Fixed offsets (`+01:00`) are not names: EventBridge Scheduler
 * takes IANA names only, so they are refused too.
 */
export function canonicalTimeZone(tz: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(tz)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The wall time in `tz` at `instant` (seconds kept, milliseconds dropped). */
export function wallTime(instant: Date, tz: string): Date {
  const p: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(instant)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return new Date(Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!));
}

/**
 * Zone offsets already looked up, per zone and quarter hour of UTC. Every offset in use today is a
 * multiple of 15 minutes and every transition falls on a quarter hour of UTC (a whole or half
 * hour of local time), so an offset is constant within such a quarter hour: one Intl lookup (a
 * few microseconds, the costly part of a zoned next run) serves every schedule asking about it.
 * Bounded: cleared when it grows past {@link OFFSET_CACHE_MAX} entries.
 */
const offsetCache = new Map<string, number>();
const OFFSET_CACHE_MAX = 20_000;
const QUARTER_HOUR_MS = 900_000;

/** Offset of `tz` from UTC at `instant`, in ms (wall time minus instant). */
export const offsetAt = (instant: number, tz: string): number => {
  const bucket = Math.floor(instant / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  const key = `${tz}|${bucket}`;
  let o = offsetCache.get(key);
  if (o === undefined) {
    o = wallTime(new Date(bucket), tz).getTime() - bucket;
    if (offsetCache.size >= OFFSET_CACHE_MAX) offsetCache.clear();
    offsetCache.set(key, o);
  }
  return o;
};

/** The wall time in `tz` at `instant` through the offset cache (seconds kept, milliseconds dropped). */
export const cachedWallTime = (instant: Date, tz: string): Date => {
  const whole = Math.floor(instant.getTime() / 1000) * 1000;
  return new Date(whole + offsetAt(whole, tz));
};

const DAY_MS = 86_400_000;

/**
 * The instant a wall time in `tz` names: null when that wall time does not exist (the hour
 * skipped when clocks go forward); the earlier of the two when it exists twice (clocks going
 * back). Every offset in force within a day either side is tried: a wall time maps to
 * `wall - offset` for each offset that is actually in force at that instant.
 */
export function instantOf(wall: Date, tz: string): Date | null {
  const w = wall.getTime();
  const offsets = new Set([offsetAt(w - DAY_MS, tz), offsetAt(w, tz), offsetAt(w + DAY_MS, tz)]);
  let best: number | null = null;
  for (const o of offsets) {
    const t = w - o;
    if (offsetAt(t, tz) === o && (best === null || t < best)) best = t;
  }
  return best === null ? null : new Date(best);
}
