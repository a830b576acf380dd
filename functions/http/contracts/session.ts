import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf } from '../schemas/common.js';
import { scopeSchema } from '../../core/tenancy/api-keys.js';

/** Contracts of session.login, session.me, session.logout, keys.list, keys.create, keys.rotate, keys.revoke, console.index, console.asset. */

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
/** `publicKey` (core/tenancy/api-keys.ts). */
const keySchema = z.object({
  key_id: z.string(),
  name: z.string(),
  scopes: z.array(scopeSchema),
  prefix: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  rotated_to: z.string().nullable().describe('The key that replaced this one by rotation (this one then works until expires_at)'),
  status: z.enum(['active', 'revoked']),
});
const cookie = ['Set-Cookie'] as const;
const text = { type: 'string' } as const;
const asset = {
  200: { description: 'The file (HTML, JavaScript, CSS, SVG)', media: { 'text/html': { schema: text }, 'text/javascript': { schema: text }, 'text/css': { schema: text }, 'image/svg+xml': { schema: text }, 'application/json': { schema: {} }, 'text/plain': { schema: text } }, headers: ['ETag' as const, 'Cache-Control' as const] },
  304: { description: 'Not modified (If-None-Match matched the ETag)', headers: ['ETag' as const] },
};

export const contracts = defineContracts({
  'session.login': {
    summary: 'Console login: sets an HttpOnly session cookie',
    body: loginBody,
    requestExample: { email: 'admin@example.com', password: 'correct horse battery staple' },
    success: { 200: { description: 'Logged in; the gleaner_session cookie is set', schema: z.object({ user_id: z.string(), tenant_id: z.string(), email: z.string(), expires_at: z.string() }), headers: [...cookie] } },
    errors: {
      401: 'Email or password is wrong',
      403: 'A browser form post from another site (login CSRF): code csrf_rejected',
      429: 'Too many attempts for this account or from this client; retry after Retry-After seconds',
    },
  },
  'session.me': {
    summary: 'The logged-in console user or key',
    success: { 200: { description: 'Who is calling', schema: z.object({
      principal: z.object({ type: z.enum(['key', 'user']), id: z.string() }),
      tenant: z.object({ tenant_id: z.string(), name: z.string() }),
      /** What this deployment can do, so the console disables what cannot work (with the reason). */
      features: z.object({ model_extraction: z.object({ available: z.boolean(), reason: z.string().nullable() }) }),
    }) } },
  },
  'session.logout': { summary: 'End the console session', success: { 204: { description: 'Logged out; the cookie is cleared', headers: [...cookie] } } },
  'keys.list': { summary: "The tenant's API keys (never their secrets)", success: { 200: { description: 'Keys', schema: listOf(keySchema) } } },
  'keys.create': {
    summary: 'Create an API key; the plaintext is returned once',
    body: keyCreateBody,
    requestExample: { name: 'CI', scopes: ['runs:read', 'runs:write', 'scrapers:read'], expires_in_days: 90 },
    success: { 201: { description: 'The key, with its plaintext `api_key` (shown once)', schema: keySchema.extend({ api_key: z.string() }) } },
  },
  'keys.rotate': {
    summary: 'Rotate a key: a new key now, the old one expires after the grace period',
    params: keyIdParams,
    body: keyRotateBody,
    bodyOptional: true,
    success: { 201: { description: 'The new key with its plaintext (shown once)', schema: keySchema.extend({ api_key: z.string(), old_key_expires_at: z.string() }) } },
    errors: { 404: 'No such key', 409: 'The key is expired or was already rotated: it cannot be rotated (again)' },
  },
  'keys.revoke': { summary: 'Revoke a key at once', params: keyIdParams, success: { 204: { description: 'Revoked' } }, errors: { 404: 'No such key' } },
  'console.index': { summary: 'The web console (HTML; no key needed, the page logs in itself)', success: asset, errors: { 404: 'The console is not installed' } },
  'console.asset': { summary: 'A static file of the web console (JavaScript, CSS, icons); 404 for anything else', params: consoleAssetParams, success: asset, errors: { 404: 'No such console file' } },
});
