import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { log } from '../log.js';
import { BUDGET_DEADLINES, BUDGET_HEAP_MB, BUDGET_YOUNG_MB, tooComplex, type BudgetKind } from './budget.js';
import { deserializeError, mapTaskError, type BudgetTaskInput, type BudgetTaskName, type BudgetTaskOutput, type SerializedError } from './budget-tasks.js';

/**
 * The one mechanism that enforces budgets (budget.ts): a small warm pool of worker threads, each
 * with a V8 heap bound ({@link BUDGET_HEAP_MB}), running one task at a time. A task past its
 * deadline has its thread terminated (the work stops, not just the wait) and the caller gets 422
 * `<kind>_too_complex`; a thread past its heap bound dies the same way. The thread that serves
 * other tenants only posts a message and waits, so a hostile schema, PDF or selector costs its
 * sender their own time, not everyone's.
 *
 * On AWS the same pool runs inside each function's invocation (a Lambda serves one request at a
 * time, so there the pool bounds the work by the request's deadline and heap rather than
 * protecting a neighbour); the thread's entry is bundled next to the handler as
 * `budget-thread.mjs`. Where no thread entry can be found the task runs inline with only its
 * static limits and a deadline on the wait, and a warning is logged once.
 */

interface Pending {
  id: number;
  task: BudgetTaskName;
  input: unknown;
  transfer: ArrayBuffer[];
  kind: BudgetKind;
  /** Whose work it is (the tenant): see {@link pump}. */
  owner: string;
  deadlineMs: number;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  busy?: Pending;
  timer?: NodeJS.Timeout;
}

/** Threads kept: enough that one tenant's bomb does not hold everyone's schema check. */
let poolSize = 2;
/**
 * Does this process serve many tenants at once? Then one owner may hold at most all threads but
 * one (see {@link nextIndex}). Not by default: a Lambda invocation serves one request (one
 * tenant), so there every thread is the request's own. The local server (startLocal) and its
 * crawl thread (crawl-thread-main.ts) serve every tenant and say so with
 * `configureBudgetPool({ shared: true })`.
 */
let shared = false;
const slots: Slot[] = [];
const queue: Pending[] = [];
/** Tasks on a thread now, by owner. */
const running = new Map<string, number>();
let nextId = 1;
let inlineWarned = false;
let closing = false;

/** Counters for tests and the operator (started threads, tasks run, overruns). */
export const budgetStats = { threads: 0, tasks: 0, overruns: 0 };

/** Pool size (tests; the local server may raise it) and whether tenants share this process (see {@link shared}). */
export function configureBudgetPool(opts: { size?: number; shared?: boolean }): void {
  if (opts.size) poolSize = Math.max(1, opts.size);
  if (opts.shared !== undefined) shared = opts.shared;
}

/** Where the thread's code is: the TypeScript source through tsx (npm start, tests), or a built file beside this one. */
let entryFound: [string | URL, { eval?: boolean }] | null | undefined;
function threadEntry(): [string | URL, { eval?: boolean }] | null {
  return entryFound === undefined ? (entryFound = findThreadEntry()) : entryFound;
}
function findThreadEntry(): [string | URL, { eval?: boolean }] | null {
  const here = import.meta.url;
  // Test hook (test/support/global-setup.ts): a budget-thread.mjs built from these sources for the
  // test run, as deployed; a thread then starts in a quarter of the CPU of loading them through tsx.
  const built = process.env.GLEANER_TEST_BUDGET_THREAD;
  if (built && existsSync(built)) return [pathToFileURL(built), {}];
  if (here.endsWith('.ts')) {
    const main = new URL('./budget-thread.ts', here);
    const tsx = import.meta.resolve?.('tsx/esm/api') ?? pathToFileURL(join(dirname(createRequire(here).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
    return [`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(main.href)}); });`, { eval: true }];
  }
  for (const name of ['./budget-thread.mjs', './budget-thread.js']) {
    const url = new URL(name, here);
    if (existsSync(fileURLToPath(url))) return [url, {}];
  }
  return null;
}

function spawn(): Slot {
  const [main, how] = threadEntry()!;
  const worker = new Worker(main, {
    ...how,
    resourceLimits: { maxOldGenerationSizeMb: BUDGET_HEAP_MB, maxYoungGenerationSizeMb: BUDGET_YOUNG_MB, stackSizeMb: 4 },
    // The thread needs no environment of the service (no keys, no endpoints).
    env: {},
    stdout: false,
    stderr: false,
  });
  budgetStats.threads++;
  // Idle threads never keep a process (a test, the CLI) alive.
  worker.unref();
  let ready!: () => void;
  const slot: Slot = { worker, ready: new Promise<void>((r) => (ready = r)) };
  let oom = false;
  worker.on('message', (m: { ready?: true; id?: number; ok?: boolean; out?: unknown; err?: SerializedError; stack?: boolean }) => {
    if (m.ready) return ready();
    const p = slot.busy;
    if (!p || p.id !== m.id) return;
    finish(slot);
    if (m.ok) p.resolve(m.out);
    else p.reject(m.stack ? tooComplex(p.kind, 'it recurses too deeply') : deserializeError(m.err!));
  });
  worker.on('error', (err: Error & { code?: string }) => {
    if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') oom = true;
    else log.warn('a budget thread failed', { err });
  });
  worker.once('exit', () => {
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    const p = slot.busy;
    if (p) {
      finish(slot);
      budgetStats.overruns++;
      p.reject(tooComplex(p.kind, oom ? `it needs more than ${BUDGET_HEAP_MB} MB of memory` : 'processing it ended its worker thread'));
    }
    ready();
    // Kept warm: a thread ended by an overrun is replaced now, not when the next task is waiting.
    if (!closing) fill();
    pump();
  });
  slots.push(slot);
  return slot;
}

/**
 * Start threads up to the pool's size. Called when work first arrives (a process that never gets
 * budgeted work starts none: memory at rest) and after a thread ends, so that a task rarely waits
 * for a thread to start (a second or more on a loaded machine).
 */
function fill(): void {
  while (slots.length < poolSize) spawn();
}

/** The task is off its thread (answered, failed, overran or lost its thread): its owner's count drops. */
function release(p: Pending): void {
  const n = (running.get(p.owner) ?? 1) - 1;
  if (n > 0) running.set(p.owner, n);
  else running.delete(p.owner);
}

function finish(slot: Slot): void {
  if (slot.timer) clearTimeout(slot.timer);
  slot.timer = undefined;
  if (slot.busy) release(slot.busy);
  slot.busy = undefined;
  slot.worker.unref();
  queueMicrotask(pump);
}

function dispatch(slot: Slot, p: Pending): void {
  slot.busy = p;
  running.set(p.owner, (running.get(p.owner) ?? 0) + 1);
  slot.worker.ref();
  budgetStats.tasks++;
  void slot.ready.then(() => {
    if (slot.busy !== p) return;
    // The deadline counts from when the thread has the task, not from the wait for a thread.
    slot.timer = setTimeout(() => {
      if (slot.busy !== p) return;
      release(p);
      slot.busy = undefined;
      // Out of the pool at once: no task may be handed to a thread that is being ended.
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      budgetStats.overruns++;
      p.reject(tooComplex(p.kind, `it took longer than ${p.deadlineMs} ms`));
      void slot.worker.terminate();
    }, p.deadlineMs);
    try {
      slot.worker.postMessage({ id: p.id, task: p.task, input: p.input }, p.transfer);
    } catch (e) {
      // The input could not even be copied to the thread (a value nested thousands deep).
      finish(slot);
      p.reject(mapTaskError(p.kind, e));
    }
  });
}

/**
 * The next task to hand a thread, fairly between owners: the oldest of an owner with the fewest
 * tasks running, and (where the process is shared) never one of an owner who already holds all but
 * one thread. So one tenant's flood of bombs (each running to its deadline) can hold at most
 * `poolSize - 1` threads, and another tenant's task waits for no more than the tasks queued
 * before it by owners with less.
 */
function nextIndex(): number {
  const cap = shared ? Math.max(1, poolSize - 1) : poolSize;
  let best = -1;
  let fewest = Infinity;
  for (let i = 0; i < queue.length && fewest > 0; i++) {
    const n = running.get(queue[i]!.owner) ?? 0;
    if (n < cap && n < fewest) [best, fewest] = [i, n];
  }
  return best;
}

function pump(): void {
  while (queue.length) {
    const i = nextIndex();
    if (i < 0) return;
    fill();
    const slot = slots.find((s) => !s.busy);
    if (!slot) return;
    dispatch(slot, queue.splice(i, 1)[0]!);
  }
}

/** Runs `task` inline (no thread entry): static limits still hold; the deadline ends the wait only. */
async function runInline<N extends BudgetTaskName>(kind: BudgetKind, inline: () => BudgetTaskOutput<N> | Promise<BudgetTaskOutput<N>>, deadlineMs: number): Promise<BudgetTaskOutput<N>> {
  if (!inlineWarned) {
    inlineWarned = true;
    log.warn('no budget thread entry found: untrusted work runs inline under its static limits only');
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(inline),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(tooComplex(kind, `it took longer than ${deadlineMs} ms`)), deadlineMs))),
    ]);
  } catch (e) {
    throw mapTaskError(kind, e);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Run `task` under the budget `kind` names: on a pool thread, stopped at `deadlineMs` (default
 * {@link BUDGET_DEADLINES}) or at the thread's heap bound, either one a 422 `<kind>_too_complex`.
 * Errors the task throws itself (a 400 for an invalid schema, a 422 unreadable PDF) come back as
 * they were thrown. `transfer`: buffers handed to the thread (the caller must not use them after).
 * `owner`: whose work it is (the tenant), for fair turns between owners (see nextIndex).
 * `inline`: the same work in this thread, for where no thread entry exists (the caller's own
 * import of the library, so the pool itself never bundles one into a handler).
 */
export function runBudgeted<N extends BudgetTaskName>(
  kind: BudgetKind,
  task: N,
  input: BudgetTaskInput<N>,
  opts: { deadlineMs?: number; transfer?: ArrayBuffer[]; owner?: string; inline: () => BudgetTaskOutput<N> | Promise<BudgetTaskOutput<N>> },
): Promise<BudgetTaskOutput<N>> {
  const deadlineMs = Math.max(1, opts.deadlineMs ?? BUDGET_DEADLINES[kind]);
  if (!threadEntry()) return runInline(kind, opts.inline, deadlineMs);
  return new Promise<BudgetTaskOutput<N>>((resolve, reject) => {
    queue.push({ id: nextId++, task, input, transfer: opts.transfer ?? [], kind, owner: opts.owner ?? '', deadlineMs, resolve: resolve as (v: unknown) => void, reject });
    pump();
  });
}

/** Start the pool's threads and wait until each can take work (tests; a server that wants no first-task wait). */
export async function warmBudgetPool(): Promise<void> {
  if (!threadEntry()) return;
  fill();
  await Promise.all(slots.map((s) => s.ready));
}

/** End every pool thread (tests, shutdown). */
export async function closeBudgetPool(): Promise<void> {
  closing = true;
  try {
    await Promise.all(slots.map((s) => s.worker.terminate()));
  } finally {
    closing = false;
  }
}
