import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchedBrowsers, liveBrowsers } from '../../../functions/adapters/browser/chromium-profile.js';
import { LocalChromiumLauncher } from '../../../functions/adapters/local/chromium-launcher.js';
import { BrowserSession } from '../../../functions/core/engine/fetch-browser.js';
import { executeTask } from '../../../functions/core/runs/execute-task.js';
import { getTask, type TaskRecord } from '../../../functions/core/runs/scrape-task.js';
import { keys } from '../../../functions/core/table-keys.js';
import { newId } from '../../../functions/core/ids.js';
import { startTestService, type TestService } from '../../support/local-service.js';
import { governance, TEST_UA } from '../engine/harness.js';
import { alive, fakeChromiums } from '../../support/fake-chromium.js';

/**
 * Runbook runs obey max_runtime and cancel, and every browser a run, a runbook test or the
 * server opened is closed on every exit path, its process gone and its profile dir removed.
 */
let site: Server;
let base = '';
let port = 0;
const waiters: Array<() => void> = [];
/** Resolves at the next request for /wait (the runbook is then inside its long wait step). */
const nextVisit = () => new Promise<void>((r) => waiters.push(r));
let svc: TestService | undefined;

beforeAll(async () => {
  site = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<html><head><title>wait</title></head><body><p>nothing ever appears here</p></body></html>');
    if (req.url?.startsWith('/wait')) for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  port = (site.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  // A run the shutdown handed back is redelivered after the retry delay (10 s by default): the
  // restart test waits for that redelivery, so a short one (the behaviour is the same).
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${port}`, GLEANER_RETRY_BASE_SECONDS: '0.1' });
});

afterAll(async () => {
  await svc?.destroy();
  await new Promise((r) => site?.close(r));
});

/** A runbook that loads /wait and then waits up to 4 minutes for an element that never comes. */
const slowSteps = () => [
  { action: 'goto', url: `${base}/wait` },
  { action: 'wait_for', selector: '#never', timeout_ms: 120_000 },
  { action: 'wait_for', selector: '#never', timeout_ms: 120_000 },
];

async function publishedRunbook(s: TestService): Promise<string> {
  const c = await s.call('/v1/runbooks', { method: 'POST', json: { name: 'slow', steps: slowSteps(), published: true } });
  expect(c.status).toBe(201);
  return c.body.id;
}

async function finished(s: TestService, id: string) {
  for (;;) {
    const r = await s.call(`/v1/runs/${id}?wait=20`);
    if (['succeeded', 'failed', 'timed_out', 'cancelled', 'blocked'].includes(r.body.status)) return r.body;
  }
}

/**
 * A runbook test (the slow steps) as the API queues it, stored without a queue message so only
 * this call runs it (not the service's own worker), run here on `launcher` with a deadline the
 * test aborts (the worker's deadline).
 */
async function startRunbookTest(launcher: LocalChromiumLauncher, name: string) {
  const rb = await svc!.call('/v1/runbooks', { method: 'POST', json: { name, steps: slowSteps() } });
  const task: TaskRecord = { task_id: newId('req'), kind: 'runbook.test', status: 'pending', request: { runbook_id: rb.body.id, input: {} }, error: null, created_at: new Date().toISOString(), expires_at: Math.floor(Date.now() / 1000) + 3600 };
  await svc!.deps.table.put({ ...keys.record(svc!.tenantId, 'TASK', task.task_id), ...task });
  const { guard, robots } = governance(port);
  const deadline = new AbortController();
  const done = executeTask({ deps: svc!.deps, guard, robots, startBrowser: (g, _p, signal) => BrowserSession.start({ launcher, guard: g, userAgent: TEST_UA, signal }) }, svc!.tenantId, task.task_id, deadline.signal);
  return { done, taskId: task.task_id, deadline, guard };
}

/** Chromium processes in this process's tree (pid -> command), from /proc. */
function chromiumDescendants(): Map<number, string> {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const m = /^(\d+) \((.*)\) \S+ (\d+)/s.exec(stat);
      if (m) {
        parent.set(Number(m[1]), Number(m[3]));
        comm.set(Number(m[1]), m[2]);
      }
    } catch {
      /* exited meanwhile */
    }
  }
  const out = new Map<number, string>();
  for (const [pid, name] of comm) {
    let p = parent.get(pid);
    while (p && p !== process.pid) p = parent.get(p);
    if (p === process.pid && /chrom|headless/i.test(name)) out.set(pid, name);
  }
  return out;
}

/** Every browser this process launched is closed: process gone, profile dir removed. */
function expectNoBrowserLeft() {
  expect(liveBrowsers()).toBe(0);
  for (const b of launchedBrowsers()) {
    expect(b.pid === undefined || !alive(b.pid)).toBe(true);
    expect(existsSync(b.profileDir)).toBe(false);
  }
  expect([...chromiumDescendants().keys()]).toEqual([]);
}

describe('runbook limits', () => {
  it('a runbook run with a long wait ends timed_out at its max_runtime, its browser closed', async () => {
    // Prepare
    const id = await publishedRunbook(svc!);
    // Act
    const c = await svc!.call('/v1/runs', { method: 'POST', json: { scraper_id: id, input: {}, limits: { max_runtime_seconds: 5 } } });
    expect(c.status).toBe(201);
    const run = await finished(svc!, c.body.id);
    // Assess
    expect(run).toMatchObject({ status: 'timed_out', stop_reason: 'max_runtime', error: { code: 'timed_out' } });
    expect(launchedBrowsers().length).toBeGreaterThan(0);
    expectNoBrowserLeft();
  });

  it('cancel during a runbook wait takes effect (cancelled, browser closed)', async () => {
    const id = await publishedRunbook(svc!);
    const visited = nextVisit();
    const c = await svc!.call('/v1/runs', { method: 'POST', json: { scraper_id: id, input: {} } });
    await visited; // the runbook is now in its 2 x 120 s wait
    const cancel = await svc!.call(`/v1/runs/${c.body.id}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(202);
    const run = await finished(svc!, c.body.id);
    expect(run).toMatchObject({ status: 'cancelled', stop_reason: 'cancelled' });
    expectNoBrowserLeft();
  });

  it('a runbook test stopped by its time budget closes its browser', async () => {
    // Prepare: the task as the API queues it, run here with a signal we control (the worker's deadline).
    const launcher = new LocalChromiumLauncher();
    const visited = nextVisit();
    // Act
    const { done, taskId, deadline, guard } = await startRunbookTest(launcher, 'slow test');
    // A task that ends before it reaches /wait (say, a browser that did not start on a loaded
    // machine) fails here with its own error instead of waiting for a visit that never comes.
    const first = await Promise.race([visited.then(() => 'visited' as const), done.then(() => 'done' as const)]);
    if (first === 'done') throw new Error(`the runbook test ended before it reached /wait: ${JSON.stringify((await getTask(svc!.deps, svc!.tenantId, taskId)).error)}`);
    deadline.abort();
    await done;
    await guard.close();
    // Assess
    const t = await getTask(svc!.deps, svc!.tenantId, taskId);
    expect(t.status).toBe('failed');
    expect(t.error).toMatchObject({ code: 'timed_out', status: 504 });
    expectNoBrowserLeft();
  });

  it('a runbook test stopped while its browser is still starting ends at once, nothing left running', async () => {
    // Prepare: a Chromium that starts and never answers (as one wedged on a loaded machine), with
    // a launch timeout far beyond this test's: only the stop can end the launch in time.
    const fakes = fakeChromiums();
    try {
      const fake = fakes.hanging('chromium');
      const launcher = new LocalChromiumLauncher({ executablePath: fake.path, candidates: [], sparticuzFallback: false, launchTimeoutMs: 600_000 });
      // Act
      const { done, taskId, deadline, guard } = await startRunbookTest(launcher, 'slow start');
      const started = await fake.started();
      deadline.abort();
      await done;
      await guard.close();
      // Assess
      expect(await getTask(svc!.deps, svc!.tenantId, taskId)).toMatchObject({ status: 'failed', error: { code: 'timed_out', status: 504 } });
      expect(alive(started.pid)).toBe(false);
      expect(existsSync(started.profileDir)).toBe(false);
      expectNoBrowserLeft();
    } finally {
      fakes.remove();
    }
  });

  it('server shutdown closes the browser of a run in progress; the run resumes on the next start', async () => {
    // Prepare
    const s = svc!;
    const id = await publishedRunbook(s);
    const visited = nextVisit();
    const c = await s.call('/v1/runs', { method: 'POST', json: { scraper_id: id, input: {} } });
    await visited;
    expect(liveBrowsers()).toBe(1);
    // Act: shut down mid-run, then start again on the same data.
    svc = undefined;
    const revisited = nextVisit();
    const again = await s.restart();
    svc = again;
    // Assess: the first browser was closed by the shutdown (not left for the restart to find) ...
    // and the run was not failed: it is re-run, and can be cancelled as usual.
    await revisited;
    expect((await again.call(`/v1/runs/${c.body.id}`)).body.status).toBe('running');
    expect((await again.call(`/v1/runs/${c.body.id}/cancel`, { method: 'POST' })).status).toBe(202);
    expect(await finished(again, c.body.id)).toMatchObject({ status: 'cancelled' });
    expectNoBrowserLeft();
  });

  it('closing the server leaves no browser behind', async () => {
    const s = svc!;
    const id = await publishedRunbook(s);
    const visited = nextVisit();
    await s.call('/v1/runs', { method: 'POST', json: { scraper_id: id, input: {} } });
    await visited;
    expect(liveBrowsers()).toBe(1);
    svc = undefined;
    await s.destroy();
    expectNoBrowserLeft();
  });
});
