import { describe, expect, it } from 'vitest';
import { heldMarks, markForeground, mirrorForeground, onForegroundChange, othersInForeground, yieldToForeground } from '../../../functions/core/limits/foreground.js';

// Interactive work of one tenant that another tenant's crawl on the same process gives way to
// (issue 21, fairness end to end).
describe('foreground marks', () => {
  it('make other tenants, never the marking tenant, give way; end when the work ends or by themselves', () => {
    const now = Date.now();
    const end = markForeground('run:a1', 'ten_a', 3_000, now);
    expect(othersInForeground('ten_a', now)).toBe(false);
    expect(othersInForeground('ten_b', now)).toBe(true);
    // Ended, it lingers a moment (the client's next request comes within it), then is gone.
    end(now);
    expect(othersInForeground('ten_b', now + 300)).toBe(true);
    expect(othersInForeground('ten_b', now + 500)).toBe(false);
    markForeground('req:a2', 'ten_a', 250, now);
    expect(othersInForeground('ten_b', now + 200)).toBe(true);
    expect(othersInForeground('ten_b', now + 500)).toBe(false);
    // A long mark is cut to a few seconds: a long run slows another tenant's crawl only at first.
    markForeground('run:a3', 'ten_a', 600_000, now);
    expect(othersInForeground('ten_b', now + 2_900)).toBe(true);
    expect(othersInForeground('ten_b', now + 3_100)).toBe(false);
  });

  it('keeps the marks of a stream of short requests bounded, sweeping ended ones now and then', () => {
    const t0 = Date.now() + 60_000;
    let most = 0;
    // 20,000 requests at 2,500 a second, each ending 5 ms after it began (lingering 400 ms).
    for (let i = 0; i < 20_000; i++) {
      const at = t0 + i * 0.4;
      markForeground(`req:sweep${i}`, 'ten_sweep', 3_000, at)(at + 5);
      most = Math.max(most, heldMarks());
    }
    // About 1,000 are alive at any moment; ended ones never pile up past twice that.
    expect(most).toBeLessThanOrEqual(2_500);
    expect(othersInForeground('ten_other', t0 + 20_000 * 0.4 + 1_000)).toBe(false);
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

  it('are followed by another thread (the crawl thread) and mirrored there', () => {
    const now = Date.now();
    const early = markForeground('req:m0', 'ten_m', 250, now);
    const seen: Array<[string, { tenant: string; until: number }]> = [];
    // (marks other tests left are told too; only this test's are looked at)
    const unfollow = onForegroundChange((id, mark) => id.includes(':m') && seen.push([id, { ...mark }]));
    // Marks already set are told at once, then each new mark and each end.
    expect(seen).toEqual([['req:m0', { tenant: 'ten_m', until: now + 250 }]]);
    const end = markForeground('run:m1', 'ten_m', 3_000, now);
    end(now);
    end(now); // told once
    expect(seen.slice(1)).toEqual([['run:m1', { tenant: 'ten_m', until: now + 3_000 }], ['run:m1', { tenant: 'ten_m', until: now + 400 }]]);
    unfollow();
    early();
    expect(seen).toHaveLength(3);
    // The mirror side: a mark taken in holds other tenants back until it is ended there.
    // (looked at 10 s on, when every other test's marks have run out)
    const later = Date.now() + 10_000;
    mirrorForeground('run:t1', { tenant: 'ten_t', until: later + 3_000 });
    expect(othersInForeground('ten_u', later)).toBe(true);
    expect(othersInForeground('ten_t', later)).toBe(false);
    mirrorForeground('run:t1', { tenant: 'ten_t', until: later - 1 }); // ended there
    expect(othersInForeground('ten_u', later)).toBe(false);
  });
});
