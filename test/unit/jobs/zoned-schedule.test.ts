import { describe, expect, it } from 'vitest';
import { nextRun, prevRun } from '../../../functions/core/jobs/cron.js';
import { canonicalTimeZone, instantOf, wallTime } from '../../../functions/core/jobs/zoned-time.js';
import { jobCreateSchema, jobUpdateSchema } from '../../../functions/core/jobs/jobs.js';

// A schedule is read in the job's time zone the way EventBridge Scheduler reads it
// (ScheduleExpressionTimezone): "When the time shifts forward in Spring, your schedule invocation
// gets skipped if the cron expression falls on a non-existent date and time. When the time shifts
// back in the Fall, your schedule runs only once and doesn't repeat its invocation."

const fires = (expr: string, from: string, n: number, tz: string) => {
  const out: string[] = [];
  let t = new Date(from);
  for (let i = 0; i < n; i++) out.push((t = nextRun(expr, t, tz)).toISOString());
  return out;
};

describe('30 2 * * * in Europe/Berlin across daylight-saving changes', () => {
  it('spring: 02:30 does not exist on 2026-03-29, so that day has no fire', () => {
    expect(fires('30 2 * * *', '2026-03-27T12:00:00.000Z', 3, 'Europe/Berlin')).toEqual([
      '2026-03-28T01:30:00.000Z', // 02:30 CET (UTC+1)
      '2026-03-30T00:30:00.000Z', // 02:30 CEST (UTC+2); the 29th is skipped
      '2026-03-31T00:30:00.000Z',
    ]);
  });

  it('autumn: 02:30 happens twice on 2026-10-25 and fires once, at the first', () => {
    expect(fires('30 2 * * *', '2026-10-23T12:00:00.000Z', 3, 'Europe/Berlin')).toEqual([
      '2026-10-24T00:30:00.000Z', // CEST
      '2026-10-25T00:30:00.000Z', // first 02:30 (CEST); the second (01:30Z, CET) does not fire
      '2026-10-26T01:30:00.000Z', // CET
    ]);
    // Asked from between the two 02:30s, the next fire is the next day's.
    expect(nextRun('30 2 * * *', new Date('2026-10-25T01:00:00.000Z'), 'Europe/Berlin').toISOString()).toBe('2026-10-26T01:30:00.000Z');
  });

  it('every 30 minutes through the autumn hour: each wall time once', () => {
    expect(fires('*/30 * * * *', '2026-10-24T23:45:00.000Z', 5, 'Europe/Berlin')).toEqual([
      '2026-10-25T00:00:00.000Z', // 02:00 CEST
      '2026-10-25T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T02:00:00.000Z', // 03:00 CET: the repeated 02:00 and 02:30 (01:00Z, 01:30Z) do not fire again
      '2026-10-25T02:30:00.000Z',
      '2026-10-25T03:00:00.000Z',
    ]);
  });

  it('prevRun (a late delivery\'s tick) agrees with nextRun around the changes', () => {
    expect(prevRun('30 2 * * *', new Date('2026-03-30T00:10:00.000Z'), 'Europe/Berlin').toISOString()).toBe('2026-03-28T01:30:00.000Z');
    expect(prevRun('30 2 * * *', new Date('2026-10-25T01:45:00.000Z'), 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(prevRun('30 2 * * *', new Date('2026-10-25T00:30:00.000Z'), 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });
});

describe('other zones', () => {
  it('America/New_York: weekdays at 09:00 local, EDT then EST', () => {
    expect(nextRun('0 9 * * 1-5', new Date('2026-10-30T14:00:00.000Z'), 'America/New_York').toISOString()).toBe('2026-11-02T14:00:00.000Z'); // Monday after the change (EST)
    expect(nextRun('0 9 * * 1-5', new Date('2026-10-29T12:00:00.000Z'), 'America/New_York').toISOString()).toBe('2026-10-29T13:00:00.000Z'); // EDT
    // 02:30 does not exist on 2026-03-08 in New York.
    expect(fires('30 2 * * *', '2026-03-07T12:00:00.000Z', 2, 'America/New_York')).toEqual(['2026-03-09T06:30:00.000Z', '2026-03-10T06:30:00.000Z']);
  });

  it('half-hour and southern-hemisphere zones', () => {
    expect(nextRun('0 8 * * *', new Date('2026-11-28T00:00:00.000Z'), 'Asia/Kolkata').toISOString()).toBe('2026-11-28T02:30:00.000Z');
    expect(nextRun('0 8 * * *', new Date('2026-11-28T00:00:00.000Z'), 'Australia/Sydney').toISOString()).toBe('2026-11-28T21:00:00.000Z'); // AEDT (UTC+11)
    expect(nextRun('0 8 * * *', new Date('2026-06-28T00:00:00.000Z'), 'Australia/Sydney').toISOString()).toBe('2026-06-28T22:00:00.000Z'); // AEST (UTC+10)
  });

  it('UTC is unchanged', () => {
    expect(nextRun('0 8 * * *', new Date('2026-11-22T09:00:00.000Z')).toISOString()).toBe('2026-11-23T08:00:00.000Z');
    expect(nextRun('0 8 * * *', new Date('2026-11-22T09:00:00.000Z'), 'UTC').toISOString()).toBe('2026-11-23T08:00:00.000Z');
  });
});

describe('zoned time', () => {
  it('maps wall times to instants: none in the gap, the first of a repeat', () => {
    expect(instantOf(new Date('2026-03-29T02:30:00.000Z'), 'Europe/Berlin')).toBeNull();
    expect(instantOf(new Date('2026-10-25T02:30:00.000Z'), 'Europe/Berlin')?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(wallTime(new Date('2026-10-25T01:30:00.000Z'), 'Europe/Berlin').toISOString()).toBe('2026-10-25T02:30:00.000Z');
  });

  it('accepts IANA names (canonical spelling), refuses unknown names and fixed offsets', () => {
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('+01:00')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
  });
});

describe('job schema: exactly one of a query or a run', () => {
  const base = { label: 'L', schedule: '0 8 * * *' };
  const issues = (b: unknown) => {
    const r = jobCreateSchema.safeParse(b);
    return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
  };
  it('accepts either kind', () => {
    expect(jobCreateSchema.parse({ ...base, scraper_id: 'page-content', input: { url: 'https://example.com/' }, timezone: 'Asia/Tokyo' }))
      .toEqual({ ...base, scraper_id: 'page-content', input: { url: 'https://example.com/' }, timezone: 'Asia/Tokyo' });
    expect(jobCreateSchema.parse({ ...base, prompt: 'p', sources: ['x'] })).toEqual({ ...base, prompt: 'p', sources: ['x'], limit: 100 });
  });
  it.each<[Record<string, unknown>, string[]]>([
    [{ prompt: 'p', sources: ['x'], scraper_id: 's', input: {} }, ['prompt', 'sources', 'scraper_id', 'input']],
    [{}, ['scraper_id', 'prompt']],
    [{ prompt: 'p' }, ['sources']],
    [{ sources: ['x'] }, ['prompt']],
    [{ scraper_id: 's' }, ['input']],
    [{ input: {} }, ['scraper_id']],
    [{ scraper_id: 's', input: {}, limit: 5 }, ['limit']],
    [{ scraper_id: 's', input: 'url' }, ['input']],
    [{ scraper_id: 's', input: {}, timezone: 'Nowhere/Else' }, ['timezone']],
  ])('%j is refused on %j', (extra, paths) => {
    const got = issues({ ...base, ...extra });
    for (const p of paths) expect(got).toContain(p);
  });
  it('PATCH takes timezone and input', () => {
    expect(jobUpdateSchema.parse({ timezone: 'america/new_york' })).toEqual({ timezone: 'America/New_York' });
    expect(jobUpdateSchema.parse({ input: { url: 'https://example.com/' } })).toEqual({ input: { url: 'https://example.com/' } });
    expect(jobUpdateSchema.safeParse({ timezone: 'Berlin' }).success).toBe(false);
  });
});
