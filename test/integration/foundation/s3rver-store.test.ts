import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { startEmbeddedStores, type EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { isStoreError } from '../../../functions/local/store-error-guard.js';

/**
 * Parallel sync scrapes ended `npm start`: each stores its result under `tenants/<t>/tasks/` and
 * deletes it once read. s3rver removed the folder when a delete left it empty, while another
 * task's put had just created it; the put's write stream then failed with ENOENT, nobody listened
 * to its `error` event, and Node exited. Here many puts and deletes share one folder at once.
 */
let dir: string;
let stores: EmbeddedStores;
const bucket = 'test-results';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-s3rver-'));
  stores = await startEmbeddedStores({ dataDir: dir, dynamoPort: 0, s3Port: 0, table: 'test', buckets: [bucket] });
});
afterAll(async () => {
  await stores?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded s3rver under concurrent puts and deletes in one folder', () => {
  it('stores every object and never loses the folder under a writer', async () => {
    const s3 = stores.s3;
    const cycle = async (i: number) => {
      const Key = `tenants/t1/tasks/req_${i}.json`;
      const Body = JSON.stringify({ i, pad: 'x'.repeat(2000) });
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body }));
      const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key }));
      expect(JSON.parse(await got.Body!.transformToString()).i).toBe(i);
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
    };
    // 4 writers (few, so the folder is often empty), 300 rounds each.
    await Promise.all(Array.from({ length: 4 }, async (_, w) => {
      for (let r = 0; r < 300; r++) await cycle(w * 1000 + r);
    }));
    // A key written after all that is readable (its folder is there or recreated).
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'tenants/t1/tasks/last.json', Body: '{"ok":true}' }));
    const last = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'tenants/t1/tasks/last.json' }));
    expect(await last.Body!.transformToString()).toBe('{"ok":true}');
  }, 180_000); // 3,600 store calls: about 40 s at rest, past the project's 60 s on a loaded machine
});

describe('isStoreError (npm start keeps running after a store error)', () => {
  it('recognises errors from the stores code or on their data files, and nothing else', () => {
    const dirs = ['/data/s3', '/data/dynamo'];
    const enoent = Object.assign(new Error("ENOENT: no such file or directory, open '/data/s3/b/tenants/x/tasks/a.json._S3rver_object'"), { code: 'ENOENT', path: '/data/s3/b/tenants/x/tasks/a.json._S3rver_object' });
    enoent.stack = enoent.message; // stream errors carry no useful stack
    expect(isStoreError(enoent, dirs)).toBe(true);
    const thrown = new Error('boom');
    thrown.stack = 'Error: boom\n    at FilesystemStore.putObject (/app/node_modules/s3rver/lib/stores/filesystem.js:288:7)';
    expect(isStoreError(thrown, dirs)).toBe(true);
    const own = new Error('bug');
    own.stack = 'Error: bug\n    at handler (/app/functions/core/runs/runs.ts:10:3)';
    expect(isStoreError(own, dirs)).toBe(false);
    expect(isStoreError(Object.assign(new Error('x'), { path: '/data/s3-other/file' }), dirs)).toBe(false);
    expect(isStoreError('string', dirs)).toBe(false);
  });
});
