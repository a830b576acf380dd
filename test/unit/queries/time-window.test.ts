import { describe, expect, it } from 'vitest';
import { AppError } from '../../../functions/core/errors.js';
import { parseLast, resolveTimeWindow, timeWindowSchema, TimeWindowError } from '../../../functions/core/queries/time-window.js';

const now = new Date('2026-03-18T12:00:00.000Z');

describe('resolveTimeWindow', () => {
  it('defaults to the 7 days before now', () => {
    expect(resolveTimeWindow(undefined, now)).toEqual({ since: '2026-03-11T12:00:00.000Z', until: '2026-03-18T12:00:00.000Z' });
    expect(resolveTimeWindow({}, now)).toEqual({ since: '2026-03-11T12:00:00.000Z', until: '2026-03-18T12:00:00.000Z' });
  });

  it.each([
    ['90m', '2026-03-18T10:30:00.000Z'],
    ['24h', '2026-03-17T12:00:00.000Z'],
    ['7d', '2026-03-11T12:00:00.000Z'],
    ['30d', '2026-02-16T12:00:00.000Z'],
    ['2w', '2026-03-04T12:00:00.000Z'],
    ['365d', '2025-03-18T12:00:00.000Z'],
  ])('last %s ends now', (last, since) => {
    expect(resolveTimeWindow({ last }, now)).toEqual({ since, until: '2026-03-18T12:00:00.000Z' });
  });

  it.each(['366d', '53w', '0h', '7', 'd7', '7y', '1.5h', '-2d', ''])('rejects last=%j', (last) => {
    expect(() => resolveTimeWindow({ last }, now)).toThrow(TimeWindowError);
  });

  it('fills a missing until with now and a missing since with until - 7d', () => {
    expect(resolveTimeWindow({ since: '2026-03-01T00:00:00Z' }, now)).toEqual({
      since: '2026-03-01T00:00:00.000Z',
      until: '2026-03-18T12:00:00.000Z',
    });
    expect(resolveTimeWindow({ until: '2026-02-01T00:00:00Z' }, now)).toEqual({
      since: '2026-01-25T00:00:00.000Z',
      until: '2026-02-01T00:00:00.000Z',
    });
  });

  it('normalizes offsets to UTC', () => {
    expect(resolveTimeWindow({ since: '2026-03-01T02:00:00+02:00', until: '2026-03-02T00:00:00Z' }, now)).toEqual({
      since: '2026-03-01T00:00:00.000Z',
      until: '2026-03-02T00:00:00.000Z',
    });
  });

  it('rejects since at or after until, and since in the future without until', () => {
    expect(() => resolveTimeWindow({ since: '2026-03-02T00:00:00Z', until: '2026-03-01T00:00:00Z' }, now)).toThrow(
      /since must be before/,
    );
    expect(() => resolveTimeWindow({ since: '2026-03-01T00:00:00Z', until: '2026-03-01T00:00:00Z' }, now)).toThrow(TimeWindowError);
    expect(() => resolveTimeWindow({ since: '2026-04-01T00:00:00Z' }, now)).toThrow(TimeWindowError);
  });

  it('rejects unparseable datetimes', () => {
    expect(() => resolveTimeWindow({ since: 'yesterday' }, now)).toThrow(/since is not a valid/);
  });

  it('TimeWindowError is a 400 invalid_request with a detail', () => {
    try {
      resolveTimeWindow({ last: '999d' }, now);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      const e = err as TimeWindowError;
      expect(e.status).toBe(400);
      expect(e.code).toBe('invalid_request');
      expect(e.message).toMatch(/365 days/);
      expect(e.details).toEqual([{ path: 'time_window', message: e.message }]);
    }
  });

  it('parseLast returns milliseconds', () => {
    expect(parseLast('90m')).toBe(90 * 60_000);
    expect(parseLast('2w')).toBe(14 * 86_400_000);
  });
});

describe('timeWindowSchema', () => {
  it.each([
    { since: '2026-01-05T00:00:00Z' },
    { until: '2026-01-05T00:00:00.123Z' },
    { since: '2026-01-05T00:00:00+02:00', until: '2026-01-06T00:00:00Z' },
    { last: '24h' },
    { last: '365d' },
  ])('accepts %j', (value) => {
    expect(timeWindowSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    [{}, 'needs since, until, or both'],
    [{ since: '2026-01-05' }, 'ISO 8601'],
    [{ since: '2026-01-06T00:00:00Z', until: '2026-01-05T00:00:00Z' }, 'since must be before until'],
    [{ last: '400d' }, 'time_window.last: must be greater than zero and at most 365 days'],
    [{ last: '7 days' }, 'time_window.last: must look like'],
    [{ last: '7d', since: '2026-01-05T00:00:00Z' }, 'either since/until or last'],
    [{ since: '2026-01-05T00:00:00Z', extra: 1 }, 'Unrecognized key'],
    ['7d', 'must be an object'],
  ])('rejects %j', (value, message) => {
    const r = timeWindowSchema.safeParse(value);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message).join(' | ')).toContain(message);
  });

  it('parses to the shape resolveTimeWindow takes', () => {
    const tw = timeWindowSchema.parse({ last: '2w' });
    expect(resolveTimeWindow(tw, now).since).toBe('2026-03-04T12:00:00.000Z');
  });
});
