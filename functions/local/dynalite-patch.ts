import { createRequire } from 'node:module';

/** A module of dynalite's own (`./db`, `./db/conditionParser`), as dynalite itself requires it. */
export function dynaliteModule<T>(path: string): T {
  const fromHere = createRequire(import.meta.url);
  return createRequire(fromHere.resolve('dynalite'))(path) as T;
}

/** What the patches below see of a dynalite store (db/index.js `create`). */
export interface DynaliteStore {
  recreate?: (this: DynaliteStore) => void;
}

interface DynaliteDb {
  create(options: unknown): DynaliteStore;
}

/**
 * Applies `patch` to every dynalite store created from now on, once per `marker` (idempotent), and
 * again to a store that dynalite recreates: its `recreate()` builds a new store with db/index.js's
 * own `create` (not the patched export) and copies the new store's fields onto the old one.
 */
export function patchDynaliteStores<S extends DynaliteStore>(marker: string, patch: (store: S) => void): void {
  const db = dynaliteModule<DynaliteDb & Record<string, unknown>>('./db');
  if (db[marker]) return;
  const apply = (store: S) => {
    patch(store);
    const recreate = store.recreate;
    if (typeof recreate === 'function')
      store.recreate = function (this: DynaliteStore) {
        recreate.call(this);
        apply(this as S);
      };
  };
  const create = db.create;
  db.create = function (options: unknown) {
    const store = create.call(this, options) as S;
    apply(store);
    return store;
  };
  db[marker] = true;
}
