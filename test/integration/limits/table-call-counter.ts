import type { Table } from '../../../functions/ports/table.js';

/** A table that counts the calls made through it (by method), over a real one. */
export function countingTable<T extends Table>(table: T): { table: T; calls: Record<string, number>; total: () => number } {
  const calls: Record<string, number> = {};
  const counted = new Proxy(table, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        calls[String(prop)] = (calls[String(prop)] ?? 0) + 1;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { table: counted, calls, total: () => Object.values(calls).reduce((a, b) => a + b, 0) };
}
