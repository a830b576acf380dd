import { parentPort } from 'node:worker_threads';
import { serializeError, type BudgetTaskName } from './budget-tasks.js';
import { BUDGET_TASKS } from './budget-thread-tasks.js';

/**
 * A budget thread (budget-pool.ts): runs one task at a time, as the pool sends them. The pool
 * terminates the thread at a task's deadline and V8 ends it past its heap bound; either way the
 * pool starts a fresh one, so nothing a hostile input left behind survives into the next task.
 */
const port = parentPort!;
port.on('message', (m: { id: number; task: BudgetTaskName; input: never }) => {
  void (async () => {
    try {
      const out = await (BUDGET_TASKS[m.task] as (input: unknown) => Promise<unknown>)(m.input);
      port.postMessage({ id: m.id, ok: true, out });
    } catch (e) {
      port.postMessage({ id: m.id, ok: false, err: serializeError(e), stack: e instanceof RangeError && /call stack/i.test(e.message) });
    }
  })();
});
// The tasks' code is loaded before the thread says it is ready: a task's deadline then counts
// its own work, not the loading of ajv or cheerio into a fresh thread.
void Promise.all([import('../extraction/schema-compile.js'), import('../engine/shape-page.js'), import('../content/pdf.js')]).finally(() => port.postMessage({ ready: true }));
