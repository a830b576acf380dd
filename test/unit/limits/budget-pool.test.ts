import { afterAll, describe, expect, it } from 'vitest';
import { budgetStats, closeBudgetPool, configureBudgetPool, runBudgeted, warmBudgetPool } from '../../../functions/core/limits/budget-pool.js';
import { checkSchema } from '../../../functions/core/extraction/schema-budget.js';

// The one budget mechanism (issue 27): work on a pool thread, stopped at its deadline (the thread
// is terminated, so the work ends, not just the wait), an overrun a 422 of the named kind, and the
// pool serving the next task on a fresh thread.

afterAll(() => closeBudgetPool());

/** 400 nested divs and `:has()` nested three deep: each level searches every subtree again (issue 27 saw 8.4 s at 150 divs). */
const deep = `<html><body>${'<div>'.repeat(400)}x${'</div>'.repeat(400)}</body></html>`;

const bomb = () => ({ html: deep, spec: { url: 'https://a.example/', formats: ['markdown' as const], decideAuto: false, extract: { x: { selector: '*:has(*:has(*:has(b)))', all: true } } } });
const noThread = () => { throw new Error('no thread'); };

/**
 * `n` bombs of tenant-a queued, then tenant-b's quick task: how many bombs had settled when the
 * quick task was answered. Both threads are started first: this is about whose task gets a
 * thread, not how fast one starts.
 */
async function bombsThenQuick(n: number): Promise<number> {
  await warmBudgetPool();
  let settled = 0;
  const bombs = Array.from({ length: n }, () =>
    runBudgeted('selector', 'page.shape', bomb(), { deadlineMs: 1_000, owner: 'tenant-a', inline: noThread }).catch((e: unknown) => e).finally(() => settled++));
  const quick = await runBudgeted('selector', 'page.shape', { html: '<p>ok</p>', spec: { url: 'https://b.example/', formats: ['markdown'], decideAuto: false, extract: { p: { selector: 'p' } } } }, { owner: 'tenant-b', inline: noThread });
  expect(quick.extracted).toEqual({ p: 'ok' });
  const settledFirst = settled;
  for (const e of await Promise.all(bombs)) expect(e).toMatchObject({ status: 422, code: 'selector_too_complex' });
  return settledFirst;
}

describe('budget pool', () => {
  it('terminates selector matching at the deadline with 422 selector_too_complex, then serves the next task', async () => {
    const overruns = budgetStats.overruns;
    const slow = runBudgeted('selector', 'page.shape', { html: deep, spec: { url: 'https://a.example/', formats: ['markdown'], decideAuto: false, extract: { x: { selector: '*:has(*:has(*:has(b)))', all: true } } } }, { deadlineMs: 1_000, inline: () => { throw new Error('no thread') } });
    await expect(slow).rejects.toMatchObject({ status: 422, code: 'selector_too_complex' });
    expect(budgetStats.overruns).toBe(overruns + 1);
    const ok = await runBudgeted('selector', 'page.shape', { html: '<html><body><h1>Hi</h1><p>there</p></body></html>', spec: { url: 'https://a.example/', formats: ['markdown'], decideAuto: false, extract: { h: { selector: 'body:has(p) h1' } } } }, { inline: () => { throw new Error('no thread'); } });
    expect(ok.extracted).toEqual({ h: 'Hi' });
  }, 60_000);

  it('by default (a Lambda invocation: one request, one tenant) gives one owner every thread', async () => {
    // Nothing configured yet in this file: the pool is in its default state. Both threads are
    // tenant-a's, so tenant-b's task gets one only once a bomb has overrun.
    expect(await bombsThenQuick(2)).toBeGreaterThan(0);
  }, 60_000);

  it("takes turns between owners where tenants share the process: one tenant's flood of bombs never holds every thread", async () => {
    // What the local server and its crawl thread configure (startLocal, crawl-thread-main.ts).
    configureBudgetPool({ shared: true });
    // Queued after all four: FIFO would run it only once three of them had overrun.
    expect(await bombsThenQuick(4)).toBe(0);
  }, 60_000);

  it('returns the errors a task throws as they were thrown (a 400 stays a 400)', async () => {
    await expect(checkSchema({ type: 'object', properties: { a: { type: 7 } } })).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
  }, 60_000);
});
