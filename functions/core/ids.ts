import { monotonicFactory } from 'ulid';
import { randomBytes } from 'node:crypto';

const ulid = monotonicFactory();

export type IdPrefix = 'run' | 'qry' | 'job' | 'whk' | 'key' | 'rbk' | 'cap' | 'evt' | 'ten' | 'req' | 'dlv' | 'aud' | 'usr' | 'ses' | 'prf' | 'chg';

/** Prefixed, sortable (ULID) identifiers: `run_01J…`. */
export const newId = (prefix: IdPrefix): string => `${prefix}_${ulid().toLowerCase()}`;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 string from a CSPRNG (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}
