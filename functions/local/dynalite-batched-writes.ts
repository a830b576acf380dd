import { patchDynaliteStores, type DynaliteStore } from './dynalite-patch.js';

type Callback = (err?: unknown) => void;
type Op = { type: 'put'; key: string; value: unknown } | { type: 'del'; key: string };
interface LevelDb {
  status: string;
  put(key: string, value: unknown, cb?: Callback): unknown;
  del(key: string, cb?: Callback): unknown;
  batch(ops: Op[], cb?: Callback): unknown;
}
interface Store extends DynaliteStore {
  db: LevelDb;
}

/**
 * dynalite writes an item, and each of its index entries, with a LevelDB put (or del) of its own:
 * a batch write of 25 items is 25 to 75 of them, each a call queued to libuv's thread pool with
 * its promise and completion (about 25 µs of CPU each against 12 for an operation of a LevelDB
 * batch; the largest item of the stores process's CPU on the crawl bench once reads went sync).
 *
 * Gives dynalite's LevelDB a `put` and `del` that queue the operation and write everything queued
 * in one turn of the event loop as one LevelDB batch, in the order the calls were made, then
 * answer each call (through setImmediate, as before) once the batch is written: no caller hears
 * of its write before it is in the database, and a later read sees it as before. A failed batch
 * fails each of its calls with its error. Calls without a callback, and calls while the database
 * is not open, go to the original methods. Idempotent; applies to the stores created after it
 * (and to a store dynalite recreates).
 */
export function batchDynaliteWrites(): void {
  patchDynaliteStores('__batchedWrites', patch);
}

function patch(store: Store): void {
  const db = store.db;
  const { put, del, batch } = db;
  let queue: { op: Op; cb: Callback }[] = [];
  const flush = () => {
    const writing = queue;
    queue = [];
    try {
      batch.call(db, writing.map((w) => w.op), (err?: unknown) => {
        for (const w of writing) w.cb(err ?? null);
      });
    } catch (err) {
      for (const w of writing) setImmediate(w.cb, err);
    }
  };
  const enqueue = (op: Op, cb: Callback) => {
    if (!queue.length) setImmediate(flush);
    queue.push({ op, cb });
  };
  db.put = function (this: unknown, key: string, value: unknown, cb?: Callback) {
    if (typeof cb !== 'function' || db.status !== 'open') return (put as (...a: unknown[]) => unknown).apply(this, [key, value, cb]);
    enqueue({ type: 'put', key, value }, cb);
    return undefined;
  };
  db.del = function (this: unknown, key: string, cb?: Callback) {
    if (typeof cb !== 'function' || db.status !== 'open') return (del as (...a: unknown[]) => unknown).apply(this, [key, cb]);
    enqueue({ type: 'del', key }, cb);
    return undefined;
  };
}
