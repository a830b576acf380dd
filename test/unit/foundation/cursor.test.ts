import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeCursor, decodeTableCursor, encodeCursor, encodeTableCursor } from '../../../functions/core/cursor.js';
import { AppError } from '../../../functions/core/errors.js';

const invalid = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_cursor' });
    return;
  }
  throw new Error('expected invalid_cursor');
};

describe('the cursor codec (issue 19 finding 4)', () => {
  const ord = z.strictObject({ ord: z.int().min(0).max(100) });

  it('round-trips a payload on the list it was made for, and only there', () => {
    const c = encodeCursor({ list: 'a', scope: 'run_1' }, { ord: 5 });
    expect(decodeCursor({ list: 'a', scope: 'run_1' }, c, ord)).toEqual({ ord: 5 });
    invalid(() => decodeCursor({ list: 'a', scope: 'run_2' }, c, ord));
    invalid(() => decodeCursor({ list: 'b', scope: 'run_1' }, c, ord));
  });

  it('refuses positions the schema does not allow and malformed text', () => {
    const b = { list: 'a' };
    const tag = encodeCursor(b, {}).split('.')[0];
    for (const payload of [{ ord: 101 }, { ord: -1 }, { ord: 1.5 }, { ord: '1' }, {}, { ord: 1, x: 1 }, null, [1]]) {
      invalid(() => decodeCursor(b, `${tag}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`, ord));
    }
    for (const junk of ['', '.', 'x.y', `${tag}.`, `${tag}.!!`, `${tag}.${Buffer.from('{').toString('base64url')}`, 'a'.repeat(5000)]) {
      invalid(() => decodeCursor(b, junk, ord));
    }
  });

  it('a table cursor must name a key of the same query: partition, index attributes and sort-key range', () => {
    const spec = { pk: 'TEN#t1', skBeginsWith: 'RUN#' };
    const c = encodeTableCursor(spec, { pk: 'TEN#t1', sk: 'RUN#2' });
    expect(decodeTableCursor(spec, c)).toEqual({ pk: 'TEN#t1', sk: 'RUN#2' });
    const tag = c.split('.')[0];
    const forge = (key: unknown) => `${tag}.${Buffer.from(JSON.stringify(key)).toString('base64url')}`;
    invalid(() => decodeTableCursor(spec, forge({ pk: 'TEN#t2', sk: 'RUN#2' })));
    invalid(() => decodeTableCursor(spec, forge({ pk: 'TEN#t1', sk: 'JOB#2' })));
    invalid(() => decodeTableCursor(spec, forge({ pk: 'TEN#t1' })));
    invalid(() => decodeTableCursor(spec, forge({ pk: 'TEN#t1', sk: 'RUN#2', x: 'y' })));
    invalid(() => decodeTableCursor({ ...spec, skBeginsWith: 'JOB#' }, c));
    const between = { pk: 'P', skBetween: ['ORD#0000000001', 'ORD#9999999999'] as [string, string] };
    const tagB = encodeTableCursor(between, { pk: 'P', sk: 'ORD#0000000005' }).split('.')[0];
    invalid(() => decodeTableCursor(between, `${tagB}.${Buffer.from(JSON.stringify({ pk: 'P', sk: 'ORD#99999999999' })).toString('base64url')}`));
    const index = { index: 'gsi1' as const, pk: 'K#t1' };
    const ci = encodeTableCursor(index, { pk: 'a', sk: 'b', gsi1pk: 'K#t1', gsi1sk: 'x' });
    expect(decodeTableCursor(index, ci)).toMatchObject({ gsi1pk: 'K#t1' });
    invalid(() => decodeTableCursor(index, encodeTableCursor(index, { gsi1pk: 'K#t1', gsi1sk: 'x' })));
  });
});
