import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStores } from './stores.js';
import { LocalQueue } from '../../../functions/adapters/local/local-queue.js';
import { NonRetryableError } from '../../../functions/core/errors.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

let table: DynamoTable;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

describe('LocalQueue', () => {
  it('retries a failing message and dead-letters it after maxReceiveCount', async () => {
    const q = new LocalQueue(table);
    const seen: number[] = [];
    const dead: string[] = [];
    q.consume('runs', async (_m, meta) => {
      seen.push(meta.receiveCount);
      throw new Error('boom');
    }, { maxReceiveCount: 2, concurrency: 1, onDeadLetter: async (m, e) => void dead.push(`${m.id}:${e}`) });
    await q.send('runs', { kind: 'x', id: 'm1' });
    await q.idle();
    expect(seen).toEqual([1, 2]);
    expect(dead).toEqual(['m1:boom']);
    expect((await table.query({ pk: 'LQ#runs' })).items).toHaveLength(0);
    expect((await table.query({ pk: 'LDLQ#runs' })).items).toHaveLength(1);
    q.stop();
  });

  it('does not retry a non-retryable error', async () => {
    const q = new LocalQueue(table);
    let calls = 0;
    const dead: string[] = [];
    q.consume('jobs', async () => {
      calls++;
      throw new NonRetryableError('bad input');
    }, { maxReceiveCount: 5, concurrency: 1, onDeadLetter: async (_m, e) => void dead.push(e) });
    await q.send('jobs', { kind: 'x' });
    await q.idle();
    expect(calls).toBe(1);
    expect(dead).toEqual(['bad input']);
    q.stop();
  });

  it('delivers unfinished messages again after a restart (durable until acknowledged)', async () => {
    const first = new LocalQueue(table);
    let started = 0;
    first.consume('queries', async () => {
      started++;
      await new Promise(() => undefined); // the process "crashes" mid-message
    }, { maxReceiveCount: 3, concurrency: 1, onDeadLetter: async () => undefined });
    await first.send('queries', { kind: 'q', n: 1 });
    await first.send('queries', { kind: 'q', n: 2 }, { delaySeconds: 3600 });
    await new Promise((r) => setTimeout(r, 50));
    expect(started).toBe(1);
    first.stop();

    const second = new LocalQueue(table);
    const got: number[] = [];
    second.consume('queries', async (m) => void got.push(m.n as number), { maxReceiveCount: 3, concurrency: 2, onDeadLetter: async () => undefined });
    expect(await second.recover()).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual([1]); // the delayed one keeps its delay
    second.stop();
  });
});
