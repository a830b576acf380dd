import * as z from 'zod';
import { scopeSchema } from '../../core/tenancy/api-keys.js';
import type { RouteDoc } from './registry.js';

export const loginBody = z.strictObject({ email: z.string().email().max(320), password: z.string().min(1).max(1024) });
export const keyCreateBody = z.strictObject({
  name: z.string().min(1).max(100).default('API key'),
  scopes: z.array(scopeSchema).min(1).max(20),
  expires_in_days: z.number().int().min(1).max(3650).optional(),
});
export const keyIdParams = z.strictObject({ key_id: z.string().regex(/^key_[0-9a-z]{26}$/, 'expected a key_… id') });
/** The greedy tail of /console/{proxy+}; which names exist is decided by the handler (404 otherwise). */
export const consoleAssetParams = z.strictObject({ proxy: z.string().min(1).max(1024) });
export const keyRotateBody = z.strictObject({ grace_seconds: z.number().int().min(0).max(30 * 86400).default(86400) }).optional();

export const consoleDocs: Record<string, RouteDoc> = {
  'session.login': { summary: 'Console login: sets an HttpOnly session cookie', body: loginBody },
  'session.me': { summary: 'The logged-in console user or key' },
  'session.logout': { summary: 'End the console session', status: 204 },
  'keys.list': { summary: "The tenant's API keys (never their secrets)" },
  'keys.create': { summary: 'Create an API key; the plaintext is returned once', body: keyCreateBody, status: 201 },
  'keys.rotate': { summary: 'Rotate a key: a new key now, the old one expires after the grace period', params: keyIdParams, body: keyRotateBody },
  'keys.revoke': { summary: 'Revoke a key at once', params: keyIdParams, status: 204 },
  'console.index': { summary: 'The web console (HTML; no key needed, the page logs in itself)' },
  'console.asset': { summary: 'A static file of the web console (JavaScript, CSS, icons); 404 for anything else', params: consoleAssetParams },
};
