import { describe, expect, it } from 'vitest';
import { markForeground, othersInForeground, yieldToForeground } from '../../../functions/core/limits/foreground.js';

// Interactive work of one tenant that another tenant's crawl on the same process gives way to
// (issue 21, fairness end to end).
describe('foreground marks', () => {
  it('make other tenants, never the marking tenant, give way; end when the work ends or by themselves', () => {
    const now = Date.now();
    const end = markForeground('run:a1', 'ten_a', 3_000, now);
    expect(othersInForeground('ten_a', now)).toBe(false);
    expect(othersInForeground('ten_b', now)).toBe(true);
    end();
    expect(othersInForeground('ten_b', now)).toBe(false);
    markForeground('req:a2', 'ten_a', 250, now);
    expect(othersInForeground('ten_b', now + 200)).toBe(true);
    expect(othersInForeground('ten_b', now + 300)).toBe(false);
    // A long mark is cut to a few seconds: a long run slows another tenant's crawl only at first.
    markForeground('run:a3', 'ten_a', 600_000, now);
    expect(othersInForeground('ten_b', now + 2_900)).toBe(true);
    expect(othersInForeground('ten_b', now + 3_100)).toBe(false);
  });

  it('a crawl waits while another tenant works, and only for a moment when that work never says it ended', async () => {
    const end = markForeground('run:x', 'ten_x');
    let done = false;
    void yieldToForeground('ten_x').then(() => (done = true)); // its own work: no wait
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toBe(true);
    let ended = false;
    setTimeout(() => {
      ended = true;
      end();
    }, 30);
    await yieldToForeground('ten_y');
    expect(ended).toBe(true);
    // A mark nobody ends: the crawl still goes on (the wait is bounded; this resolves).
    markForeground('run:stuck', 'ten_x');
    await yieldToForeground('ten_y');
    expect(othersInForeground('ten_y')).toBe(true);
  });
});
