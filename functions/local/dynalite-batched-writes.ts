import { createRequire } from 'node:module';

type Callback = (err?: unknown) => void;
type Op = { type: 'put'; key: string; value: unknown } | { type: 'del'; key: string };
interface LevelDb {
  status: string;
  put(key: string, value: unknown, cb?: Callback): unknown;
  del(key: string, cb?: Callback): unknown;
  batch(ops: Op[], cb?: Callback): unknown;
}
interface DynaliteStore {
  db: LevelDb;
  recreate?: (this: DynaliteStore) => void;
}
interface DynaliteDb {
  create(options: unknown): DynaliteStore;
  __batchedWrites?: true;
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
  const fromHere = createRequire(import.meta.url);
  const dyn = createRequire(fromHere.resolve('dynalite'))('./db') as DynaliteDb;
  if (dyn.__batchedWrites) return;
  const create = dyn.create;
  dyn.create = function (options: unknown) {
    const store = create.call(this, options);
    patch(store);
    return store;
  };
  dyn.__batchedWrites = true;
}

function patch(store: DynaliteStore): void {
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
  // recreate() builds a new store and copies its fields (db and recreate included) onto this one.
  const recreate = store.recreate;
  if (typeof recreate === 'function')
    store.recreate = function (this: DynaliteStore) {
      recreate.call(this);
      patch(this);
    };
}
