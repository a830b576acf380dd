import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunbookStepInput } from '../../../functions/core/scrapers/runbook.js';
import { budgetStats, closeBudgetPool } from '../../../functions/core/limits/budget-pool.js';
import { collectingContext, makeHarness, runSteps, type Harness } from './harness.js';
import { cssExtract } from '../../../functions/core/scrapers/registry.js';

// A runbook's `extract` step (and a `content` step's include/exclude tags) matches the tenant's selectors under the selector budget, like a
// scrape's extract.fields and include/exclude tags (limits/budget-pool.ts): a hostile selector on
// a hostile page ends the step as 422 selector_too_complex at the step's deadline instead of
// holding the thread that serves every tenant. Without the budget the step runs to its end
// (minutes) and the runbook succeeds late, or the test times out: either way this test fails.

/**
 * 40,000 sibling paragraphs. `p:has(~ b)` passes the static selector limits (one `:has()`, one
 * combinator), yet for each paragraph it copies and checks every sibling after it: some 800
 * million checks, far past any step's deadline.
 */
const WIDE = `<html><body>${'<p>x</p>'.repeat(40_000)}</body></html>`;
const HONEST = '<html><body><ul><li class="o"><b>A-1</b> <i>3.50</i></li><li class="o"><b>A-2</b> <i>7.00</i></li></ul></body></html>';

let server: Server;
let base: string;
let h: Harness;

beforeAll(async () => {
  server = createServer((req, res) => {
    const page = req.url === '/wide' ? WIDE : req.url === '/orders' ? HONEST : null;
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  h = makeHarness({ fixturePort: port, owner: 'tenant-a' });
});

afterAll(async () => {
  await h?.close();
  await new Promise((r) => server?.close(r));
  await closeBudgetPool();
});

// The selector's deadline is the step's: short enough for a test, long enough for a page load.
const run = (steps: RunbookStepInput[]) => runSteps(h.engine, steps, { stepTimeoutMs: 8_000 });

describe('runbook extract and content under the selector budget', () => {
  it('a hostile selector on a hostile page ends the step as 422 selector_too_complex, and later steps do not run', async () => {
    const overruns = budgetStats.overruns;
    const res = await run([
      { action: 'goto', url: `${base}/wide` },
      { action: 'extract', item_selector: 'p:has(~ b)', fields: { x: { selector: 'b' } } },
      { action: 'goto', url: `${base}/orders` },
    ]);
    expect(res.status).toBe('failed');
    expect(res.error).toMatchObject({ code: 'selector_too_complex' });
    expect(res.log.map((l) => [l.action, l.ok, l.error?.code])).toEqual([['goto', true, undefined], ['extract', false, 'selector_too_complex']]);
    expect(res.items).toEqual([]);
    // Its thread was ended at the deadline (the work stopped, not just the wait).
    expect(budgetStats.overruns).toBe(overruns + 1);
  }, 120_000);

  it('hostile exclude_tags of a content step end the step as 422 selector_too_complex too', async () => {
    const overruns = budgetStats.overruns;
    const res = await run([
      { action: 'goto', url: `${base}/wide` },
      { action: 'content', formats: ['markdown'], exclude_tags: ['p:has(~ b)'] },
    ]);
    expect(res.status).toBe('failed');
    expect(res.error).toMatchObject({ code: 'selector_too_complex' });
    expect(res.log.map((l) => [l.action, l.ok, l.error?.code])).toEqual([['goto', true, undefined], ['content', false, 'selector_too_complex']]);
    expect(budgetStats.overruns).toBe(overruns + 1);
  }, 120_000);

  it('a content step with honest include_tags is shaped on a budget thread (the tags apply as before)', async () => {
    const tasks = budgetStats.tasks;
    const res = await run([
      { action: 'goto', url: `${base}/orders` },
      { action: 'content', formats: ['text'], only_main_content: false, include_tags: ['li.o:has(i)'] },
    ]);
    expect(res.error).toBeNull();
    expect(String(res.items[0]!.data.text)).toMatch(/A-1\s+3\.50[\s\S]*A-2\s+7\.00/);
    expect(budgetStats.tasks).toBe(tasks + 1);
  }, 120_000);

  it('an honest extract is matched on a budget thread too (items and field values as before)', async () => {
    const tasks = budgetStats.tasks;
    const res = await run([
      { action: 'goto', url: `${base}/orders` },
      { action: 'extract', item_selector: 'li.o:has(i)', fields: { id: { selector: 'b' }, total: { selector: 'i' } } },
    ]);
    expect(res.error).toBeNull();
    expect(res.items.map((i) => i.data)).toEqual([{ id: 'A-1', total: '3.50' }, { id: 'A-2', total: '7.00' }]);
    expect(budgetStats.tasks).toBe(tasks + 1);
  }, 120_000);
});

describe('css-extract under the selector budget', () => {
  it('a hostile item selector on a hostile page fails the run as 422 selector_too_complex at the page timeout', async () => {
    const overruns = budgetStats.overruns;
    const c = collectingContext(h.engine);
    const input = cssExtract.inputSchema.parse({ url: `${base}/wide`, item_selector: 'p:has(~ b)', fields: { x: { selector: 'b' } }, engine: 'http', timeout_ms: 3_000 });
    await expect(cssExtract.run(input, c.ctx)).rejects.toMatchObject({ status: 422, code: 'selector_too_complex' });
    expect(c.items).toEqual([]);
    expect(budgetStats.overruns).toBe(overruns + 1);
  }, 120_000);

  it('honest selectors, removals and the next-page link are matched on a budget thread (records as before)', async () => {
    const tasks = budgetStats.tasks;
    const c = collectingContext(h.engine);
    const input = cssExtract.inputSchema.parse({ url: `${base}/orders`, item_selector: 'li.o', fields: { id: { selector: 'b' }, total: { selector: 'i' } }, engine: 'http' });
    expect(await cssExtract.run(input, c.ctx)).toEqual({ pages_done: 1, items: 2, stopped: 'done' });
    expect(c.items.map((i) => i.data)).toEqual([{ id: 'A-1', total: '3.50' }, { id: 'A-2', total: '7.00' }]);
    expect(budgetStats.tasks).toBe(tasks + 1);
  }, 120_000);
});
