import { patchDynaliteStores, type DynaliteStore } from './dynalite-patch.js';

type Callback = (err: unknown, value?: unknown) => void;
interface LevelDb {
  status: string;
  get(key: string, cb?: Callback): unknown;
  getSync?(key: string): unknown;
  supports?: { getSync?: boolean };
}
interface Store extends DynaliteStore {
  db: LevelDb;
}

/**
 * dynalite reads every item it writes before writing it (a put's or an update's old item: its
 * condition, its return value, its index entries) and every item it gets, through LevelDB's
 * asynchronous get: a call queued to libuv's thread pool, a promise, a completion, and then
 * dynalite's own promise chain and a setImmediate back to its callback. A read from LevelDB's
 * memtable or block cache takes a few microseconds; the round trip cost about 25 µs of CPU each,
 * a sixth of the stores process's CPU on the crawl bench.
 *
 * Gives dynalite's LevelDB a `get` that reads with `getSync` (the same read of the same key,
 * returning the same value, or undefined when there is none) and still answers through
 * setImmediate as before, so dynalite's callbacks keep running on a later turn in the order they
 * did. While the database is not open (opening, closing, closed) the original get answers, with
 * its own errors. Idempotent; applies to the stores created after it (and to a store dynalite
 * recreates).
 */
export function syncDynaliteReads(): void {
  patchDynaliteStores('__syncReads', patch);
}

function patch(store: Store): void {
  const db = store.db;
  if (db.supports?.getSync !== true || typeof db.getSync !== 'function') return;
  const asyncGet = db.get;
  db.get = function (this: unknown, key: string, cb?: Callback) {
    if (typeof cb !== 'function' || db.status !== 'open') return (asyncGet as (...a: unknown[]) => unknown).apply(this, [key, cb]);
    let value: unknown;
    let error: unknown = null;
    try {
      value = db.getSync!(key);
    } catch (err) {
      // As dynalite's own get reports a database that closed under it.
      error = (err as { code?: string }).code === 'LEVEL_DATABASE_NOT_OPEN' ? new Error('Database is closed') : err;
    }
    setImmediate(cb, error, value);
    return undefined;
  };
}
