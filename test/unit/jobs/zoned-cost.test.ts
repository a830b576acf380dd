import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextRun, prevRun } from '../../../functions/core/jobs/cron.js';
import { publicJob, jobRecordSchema } from '../../../functions/core/jobs/jobs.js';

// Issue 37 finding 4: the next run of a zoned schedule walked three hours of ticks back through
// Intl (about six zone lookups a tick): an every-minute Europe/Berlin job cost ~9 ms, a list of
// 200 of them 1.7 s of CPU. The work is counted here (calls into Intl's formatToParts, the
// zone-offset lookup), not timed.
const countZoneLookups = () => vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
afterEach(() => vi.restoreAllMocks());

const job = (i: number, schedule: string, timezone: string) =>
  jobRecordSchema.parse({
    job_id: `job_${String(i).padStart(4, '0')}`, tenant_id: 'ten_a', label: 'j', kind: 'run', timezone, prompt: null, sources: null, time_window: null, limit: null,
    scraper_id: 'page-content', input: { url: 'https://example.com/' }, schedule, webhook_url: null, status: 'active',
    created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', schedule_name: `job-a-${i}`, last_run: null,
  });

describe('zoned next-run cost', () => {
  it('listing 200 frequent Europe/Berlin jobs does a bounded number of zone lookups', () => {
    const jobs = Array.from({ length: 200 }, (_, i) => job(i, i % 2 ? '*/5 * * * *' : `${i % 60} * * * *`, 'Europe/Berlin'));
    const now = new Date('2026-11-23T10:17:31.250Z');
    const spy = countZoneLookups();
    const shown = jobs.map((j) => publicJob(j, now));
    // Was 16,600 (three hours of ticks back per job, up to six lookups a tick).
    expect(spy.mock.calls.length).toBeLessThanOrEqual(200);
    expect(shown[1]!.next_run_at).toBe('2026-11-23T10:20:00.000Z');
    expect(shown[0]!.next_run_at).toBe('2026-11-23T11:00:00.000Z');
  });

  it('one every-minute next run across a DST change costs a handful of lookups, not hours of ticks', () => {
    const spy = countZoneLookups();
    // In the repeated hour (02:xx CET, second pass): the 02:xx ticks already fired (first pass, CEST).
    expect(nextRun('* * * * *', new Date('2026-10-25T01:30:00.000Z'), 'Europe/Berlin').toISOString()).toBe('2026-10-25T02:00:00.000Z');
    expect(nextRun('* * * * *', new Date('2026-03-29T00:59:30.000Z'), 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(nextRun('*/10 * * * *', new Date('2026-03-08T06:55:00.000Z'), 'America/New_York').toISOString()).toBe('2026-03-08T07:00:00.000Z'); // 01:55 EST -> 03:00 EDT
    expect(prevRun('* * * * *', new Date('2026-10-25T01:30:10.000Z'), 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:59:00.000Z');
    // Was 3,144 (three hours of ticks each, six lookups a tick).
    expect(spy.mock.calls.length).toBeLessThanOrEqual(100);
  });
});
