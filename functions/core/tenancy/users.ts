import { scrypt as scryptCb, randomBytes, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId, randomBase62 } from '../ids.js';
import { ConditionFailedError, conflict } from '../errors.js';
import { hashKey } from './api-keys.js';
import { parseStored } from '../stored.js';
import type { Table } from '../../ports/table.js';

// Wrapped by hand, not with util.promisify: node:util is not otherwise loaded by an API function.
const scrypt = (p: string, s: Buffer, n: number) => new Promise<Buffer>((resolve, reject) => scryptCb(p, s, n, (err, key) => (err ? reject(err) : resolve(key))));
export const SESSION_TTL_SECONDS = 12 * 3600;

const userSchema = z.object({ user_id: z.string(), tenant_id: z.string(), email: z.string(), password_hash: z.string(), created_at: z.string() });
export type User = z.infer<typeof userSchema>;
const sessionSchema = z.object({ user_id: z.string(), tenant_id: z.string(), email: z.string(), expires_at: z.number() });
export type Session = z.infer<typeof sessionSchema>;

async function hashPassword(pw: string): Promise<string> {
  const salt = randomBytes(16);
  const dk = await scrypt(pw, salt, 32);
  return `scrypt$${salt.toString('base64')}$${dk.toString('base64')}`;
}
async function verifyPassword(pw: string, stored: string): Promise<boolean> {
  const [, s, h] = stored.split('$');
  if (!s || !h) return false;
  const dk = await scrypt(pw, Buffer.from(s, 'base64'), 32);
  const want = Buffer.from(h, 'base64');
  return dk.length === want.length && timingSafeEqual(dk, want);
}

/** A console user of a tenant (all console users are tenant admins). */
export async function createUser(table: Table, tenantId: string, email: string, password: string, now: Date): Promise<Omit<User, 'password_hash'>> {
  if (password.length < 8) throw new Error('Password must be at least 8 characters');
  const user: User = { user_id: newId('usr'), tenant_id: tenantId, email: email.toLowerCase(), password_hash: await hashPassword(password), created_at: now.toISOString() };
  try {
    await table.put({ ...keys.user(email), ...user }, { condition: { expression: 'attribute_not_exists(pk)' } });
  } catch (e) {
    if (e instanceof ConditionFailedError) throw conflict('A user with this email already exists');
    throw e;
  }
  const { password_hash: _, ...pub } = user;
  return pub;
}

/**
 * A hash of a random password, verified against when the email is unknown: a wrong email then
 * costs the same scrypt work as a wrong password, so response times do not reveal which emails exist.
 */
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword(randomBase62(24)));

/** Password login: returns a session token (shown once, stored as SHA-256) or undefined. */
export async function login(table: Table, email: string, password: string, now: Date): Promise<{ token: string; session: Session } | undefined> {
  const i = await table.get(keys.user(email));
  const ok = await verifyPassword(password, i ? String(i.password_hash) : await dummy());
  if (!i || !ok) return undefined;
  const user = parseStored(userSchema, i, 'user');
  if (!user) return undefined;
  const token = `gls_${randomBase62(40)}`;
  const session: Session = { user_id: user.user_id, tenant_id: user.tenant_id, email: user.email, expires_at: Math.floor(now.getTime() / 1000) + SESSION_TTL_SECONDS };
  await table.put({ ...keys.session(hashKey(token)), ...session });
  return { token, session };
}

export async function findSession(table: Table, token: string, now: Date): Promise<Session | undefined> {
  if (!/^gls_[0-9A-Za-z]{40}$/.test(token)) return undefined;
  const i = await table.get(keys.session(hashKey(token)));
  if (!i) return undefined;
  const s = parseStored(sessionSchema, i, 'session');
  return s && s.expires_at * 1000 > now.getTime() ? s : undefined;
}

export async function logout(table: Table, token: string): Promise<void> {
  await table.delete(keys.session(hashKey(token)));
}
