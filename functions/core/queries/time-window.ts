import * as z from 'zod';
import { AppError } from '../errors.js';

/**
 * Query time windows (API.md "Queries surface", `time_window`): either an explicit
 * `{ since?, until? }` range of ISO 8601 datetimes or a relative `{ last: "24h" }`.
 * Resolution is pure: the caller passes `now`.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

/** Window used when the request (and the prompt) name none. */
export const DEFAULT_WINDOW_MS = 7 * DAY_MS;
/** Upper bound of a relative `last` window. */
export const MAX_LAST_MS = 365 * DAY_MS;

const LAST_RE = /^(\d+)([mhdw])$/;
const UNIT_MS: Record<string, number> = { m: MINUTE_MS, h: HOUR_MS, d: DAY_MS, w: WEEK_MS };

export type TimeWindowInput = { since?: string; until?: string } | { last: string };
export interface ResolvedTimeWindow {
  since: string;
  until: string;
}

/** A time window that cannot be resolved; maps to 400 `invalid_request` at the HTTP edge. */
export class TimeWindowError extends AppError {
  constructor(message: string) {
    super(400, 'invalid_request', message, [{ path: 'time_window', message }]);
    this.name = 'TimeWindowError';
  }
}

/**
 * Length in milliseconds of a relative window such as `90m`, `24h`, `7d`, `2w`.
 * @throws TimeWindowError when malformed, zero, or longer than 365 days.
 */
export function parseLast(last: string): number {
  const m = LAST_RE.exec(last);
  if (!m) throw new TimeWindowError(`time_window.last must look like 90m, 24h, 7d or 2w (got "${last}")`);
  const amount = Number(m[1]);
  const ms = amount * UNIT_MS[m[2]];
  if (amount <= 0) throw new TimeWindowError('time_window.last must be greater than zero');
  if (ms > MAX_LAST_MS) throw new TimeWindowError('time_window.last must be at most 365 days');
  return ms;
}

function parseInstant(value: string, field: string): number {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new TimeWindowError(`time_window.${field} is not a valid ISO 8601 datetime`);
  return t;
}

/**
 * Resolve a request's time window to absolute ISO 8601 UTC bounds.
 *
 * - `undefined` (or `{}`): the 7 days before `now`.
 * - `{ last }`: `now - last` to `now`.
 * - `{ since?, until? }`: `until` defaults to `now`, `since` to `until - 7 days`.
 *
 * Invariant of the result: `since < until`.
 * @throws TimeWindowError when a bound is malformed or `since` is not before `until`.
 */
export function resolveTimeWindow(tw: TimeWindowInput | undefined, now: Date): ResolvedTimeWindow {
  const nowMs = now.getTime();
  if (Number.isNaN(nowMs)) throw new TimeWindowError('now is not a valid date');
  let sinceMs: number;
  let untilMs: number;
  if (tw && 'last' in tw) {
    untilMs = nowMs;
    sinceMs = nowMs - parseLast(tw.last);
  } else {
    untilMs = tw?.until !== undefined ? parseInstant(tw.until, 'until') : nowMs;
    sinceMs = tw?.since !== undefined ? parseInstant(tw.since, 'since') : untilMs - DEFAULT_WINDOW_MS;
  }
  if (!(sinceMs < untilMs)) throw new TimeWindowError('time_window.since must be before time_window.until');
  return { since: new Date(sinceMs).toISOString(), until: new Date(untilMs).toISOString() };
}

const isoDateTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 datetime with a timezone (e.g. 2026-01-05T00:00:00Z)' });

const rangeWindowSchema = z
  .strictObject({ since: isoDateTime.optional(), until: isoDateTime.optional() })
  .refine((v) => v.since !== undefined || v.until !== undefined, { error: 'time_window needs since, until, or both' })
  .refine((v) => v.since === undefined || v.until === undefined || Date.parse(v.since) < Date.parse(v.until), {
    message: 'since must be before until',
    path: ['since'],
  });

const lastWindowSchema = z.strictObject({
  last: z
    .string()
    .regex(LAST_RE, { error: 'must look like 90m, 24h, 7d or 2w' })
    .refine(
      (v) => {
        const m = LAST_RE.exec(v);
        if (!m) return true; // reported by the regex
        const ms = Number(m[1]) * UNIT_MS[m[2]];
        return ms > 0 && ms <= MAX_LAST_MS;
      },
      { error: 'must be greater than zero and at most 365 days' },
    ),
});

/** Request-body schema of `time_window`: `{ since?, until? }` (at least one) or `{ last }`. */
export const timeWindowSchema = z.union([rangeWindowSchema, lastWindowSchema], {
  // A failed union reports "Invalid input"; name the branch the caller meant instead.
  error: (iss) => {
    if (iss.code !== 'invalid_union') return undefined;
    const input = iss.input;
    if (!input || typeof input !== 'object' || Array.isArray(input)) return 'time_window must be an object';
    const hasLast = 'last' in input;
    if (hasLast && ('since' in input || 'until' in input)) return 'time_window takes either since/until or last, not both';
    const first = iss.errors[hasLast ? 1 : 0]?.[0];
    if (!first) return undefined;
    const where = first.path.length ? `time_window.${first.path.join('.')}` : 'time_window';
    return `${where}: ${first.message}`;
  },
});
