import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStores } from '../foundation/stores.js';
import { S3Blobs } from '../../../functions/adapters/aws/s3-blobs.js';
import { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';
import { deleteResultFile, findResultFile, listResultFiles, putResultFile, readResultFile } from '../../../functions/core/storage/result-files.js';
import type { Blobs } from '../../../functions/ports/blobs.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

// A delete interrupted between its two steps (S3 object, index record) must leave a state the
// same delete can finish: nothing stored becomes unreachable.
let stores: EmbeddedStores;
let table: DynamoTable;
let blobs: S3Blobs;
const T = 'ten_delete';
const objectKey = (k: string) => `tenants/${T}/results/${k}`;

beforeAll(async () => {
  ({ stores, table } = await memoryStores());
  blobs = new S3Blobs(stores.s3, { results: 'test-results', raw: 'test-raw' });
});
afterAll(async () => stores?.close());

const put = (key: string) => putResultFile(table, blobs, T, { key, query_id: key, job_id: null, created_at: new Date().toISOString() }, { key });

/** The real store, failing the named operation once (an AccessDenied, a timeout, a crash). */
function failingOnce<S extends object>(real: S, op: keyof S): S {
  let failed = false;
  return new Proxy(real, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== op || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
      return (...args: unknown[]) => {
        if (!failed) {
          failed = true;
          return Promise.reject(new Error(`injected ${String(op)} failure`));
        }
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('deleteResultFile', () => {
  it('keeps the record when the object delete fails, so a retry deletes both', async () => {
    await put('qry_keep_1');
    await expect(deleteResultFile(table, failingOnce<Blobs>(blobs, 'delete'), T, 'qry_keep_1')).rejects.toThrow(/injected/);
    // The record stays (marked, so the delete can be found and finished), and so does the content.
    expect(await table.get({ pk: `TEN#${T}`, sk: 'FILE#qry_keep_1' })).toBeDefined();
    expect(await blobs.get('results', objectKey('qry_keep_1'))).toBeDefined();
    await deleteResultFile(table, blobs, T, 'qry_keep_1');
    expect(await findResultFile(table, T, 'qry_keep_1')).toBeUndefined();
    expect(await blobs.get('results', objectKey('qry_keep_1'))).toBeUndefined();
  });

  it('when the record delete fails after the object is gone, the file is hidden and a retry finishes', async () => {
    await put('qry_half_1');
    await expect(deleteResultFile(failingOnce<Table>(table, 'delete'), blobs, T, 'qry_half_1')).rejects.toThrow(/injected/);
    expect(await table.get({ pk: `TEN#${T}`, sk: 'FILE#qry_half_1' })).toBeDefined();
    // Never a read of a record without content (on AWS that read is a 403 from S3, not a 404).
    await expect(readResultFile(table, blobs, T, 'qry_half_1')).rejects.toMatchObject({ status: 404 });
    expect((await listResultFiles(table, T, { limit: 50 })).data.map((f) => f.key)).not.toContain('qry_half_1');
    await deleteResultFile(table, blobs, T, 'qry_half_1');
    expect(await table.get({ pk: `TEN#${T}`, sk: 'FILE#qry_half_1' })).toBeUndefined();
  });
});
