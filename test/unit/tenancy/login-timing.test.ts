import { describe, expect, it, vi } from 'vitest';
import type { Table } from '../../../functions/ports/table.js';

// Finding 6 (issue 9): an unknown email must cost the same password-hashing work as a known one,
// so response times do not reveal which accounts exist. Counted in scrypt calls, not in time.
const calls = vi.hoisted(() => ({ scrypt: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const orig = await importOriginal<typeof import('node:crypto')>();
  const scrypt = ((...a: Parameters<typeof orig.scrypt>) => {
    calls.scrypt++;
    return (orig.scrypt as (...x: unknown[]) => void)(...a);
  }) as typeof orig.scrypt;
  return { ...orig, default: { ...orig, scrypt }, scrypt };
});

const { createUser, login } = await import('../../../functions/core/tenancy/users.js');

/** Just enough of the Table port for users.ts: get and put by key. */
function memoryTable(): Table {
  const items = new Map<string, Record<string, unknown>>();
  const k = (key: { pk: string; sk: string }) => `${key.pk}|${key.sk}`;
  return {
    get: async (key) => items.get(k(key)) as never,
    put: async (item) => void items.set(k(item), item),
    update: async () => { throw new Error('unused'); },
    delete: async () => undefined,
    query: async () => ({ items: [], cursor: null }),
    batchPut: async () => undefined,
    batchGet: async () => [],
  };
}

describe('console login work', () => {
  it('an unknown email costs the same scrypt work as a wrong password for a known one', async () => {
    const table = memoryTable();
    const now = new Date();
    await createUser(table, 'ten_x', 'known@example.com', 'correct horse battery', now);
    await login(table, 'warm@example.com', 'whatever1', now); // first unknown email builds the dummy hash once

    calls.scrypt = 0;
    expect(await login(table, 'known@example.com', 'wrong password', now)).toBeUndefined();
    const known = calls.scrypt;

    calls.scrypt = 0;
    expect(await login(table, 'nobody@example.com', 'wrong password', now)).toBeUndefined();
    const unknown = calls.scrypt;

    expect(known).toBe(1);
    expect(unknown).toBe(known);
    expect(await login(table, 'known@example.com', 'correct horse battery', now)).toBeDefined();
  });
});
