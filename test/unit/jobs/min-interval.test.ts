import { describe, expect, it } from 'vitest';
import { minIntervalSeconds } from '../../../functions/core/jobs/eventbridge-cron.js';

// The shortest gap between two fires of a schedule (the floor a job's schedule is held to).
describe('minIntervalSeconds', () => {
  it.each([
    ['* * * * *', 60],
    ['*/5 * * * *', 300],
    ['0,58 * * * *', 120], // 00:58 -> 01:00
    ['0 * * * *', 3600],
    ['0 8,20 * * *', 12 * 3600],
    ['30 23 * * *', 86_400],
    ['0 0,23 * * *', 3600], // 23:00 -> 00:00 the next day
    ['0 0,23 * * 1', 23 * 3600], // Mondays only: no next day
    ['0 0,23 * * 1,2', 3600], // Monday 23:00 -> Tuesday 00:00
    ['0 0,23 * * 6,0', 3600], // Saturday -> Sunday
    ['0 0,23 1,15 * *', 23 * 3600],
    ['0 0,23 31,1 * *', 3600], // the 31st -> the 1st
    ['0 8 * * 1', 2 * 86_400], // at most once a day, at least two apart: reported as two days
  ])('%s: %i s', (expr, seconds) => expect(minIntervalSeconds(expr)).toBe(seconds));
});
