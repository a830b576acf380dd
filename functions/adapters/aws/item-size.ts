import { ItemTooLargeError } from '../../core/errors.js';

/** DynamoDB's hard limit on one item, names and values included. */
export const MAX_ITEM_BYTES = 400 * 1024;

/**
 * An item's size as DynamoDB counts it (attribute names + values; UTF-8 strings, ~1 byte per two
 * digits of a number, 3 bytes + 1 per element of a map or list). Iterative, so a deeply nested
 * value cannot overflow the stack.
 */
export function itemSize(item: Record<string, unknown>): number {
  let size = 0;
  const stack: unknown[] = [item];
  let first = true;
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') size += Buffer.byteLength(v);
    else if (typeof v === 'number' || typeof v === 'bigint') size += Math.ceil(String(v).replace(/[-.]/g, '').length / 2) + 1;
    else if (typeof v === 'boolean' || v === null || v === undefined) size += 1;
    else if (v instanceof Uint8Array) size += v.byteLength;
    else if (v instanceof Set) for (const x of v) stack.push(x);
    else if (Array.isArray(v)) {
      size += 3 + v.length;
      for (const x of v) stack.push(x);
    } else if (typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      if (!first) size += 3 + entries.length;
      for (const [k, x] of entries) {
        size += Buffer.byteLength(k);
        stack.push(x);
      }
    }
    first = false;
  }
  return size;
}

/**
 * Refuse an item over 400 KB before it reaches the store. DynamoDB refuses it too, but dynalite
 * (local mode) does not: checking here keeps the two modes alike, so local tests see the limit.
 * @throws ItemTooLargeError (413 `payload_too_large` at the HTTP edge)
 */
export function assertItemSize(item: Record<string, unknown>): void {
  const size = itemSize(item);
  if (size > MAX_ITEM_BYTES) throw new ItemTooLargeError(size, MAX_ITEM_BYTES);
}
