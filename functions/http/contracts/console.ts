import { z } from 'zod';
import { defineContracts } from './contract.js';
import { idParam, listOf, pageQuery } from '../schemas/common.js';
import { scopeSchema } from '../../core/tenancy/api-keys.js';
import { auditRecordSchema } from '../../core/audit/audit.js';
import { datasetsQuery } from '../../core/console/overview.js';
import { profileBodySchema } from '../../core/profiles/browser-profiles.js';

/** Contracts of the console's own API (session, keys, overview pages, profiles, audit) and its static files. */

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
export const profileIdParams = idParam('profile_id', 'prf');
export const auditListQuery = pageQuery.extend({
  action: z.string().max(100).optional(),
  outcome: z.enum(['allowed', 'denied', 'error']).optional(),
});

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
  status: z.enum(['active', 'revoked']),
});
const profileSchema = z.object({
  profile_id: z.string(),
  name: z.string(),
  viewport: z.object({ width: z.number().int(), height: z.number().int() }),
  device_scale_factor: z.number(),
  is_mobile: z.boolean(),
  locale: z.string(),
  timezone: z.string(),
  color_scheme: z.enum(['light', 'dark']),
  created_at: z.string(),
  updated_at: z.string(),
});
const count = z.record(z.string(), z.number().int());
/** Console overview pages grow with the console: required fields are fixed, more may appear. */
const monitoringSchema = z.looseObject({
  window: z.object({ since: z.string(), until: z.string() }),
  runs: z.looseObject({ total: z.number().int(), by_status: count }),
  queries: z.looseObject({ total: z.number().int(), by_status: count }),
  challenges: z.looseObject({ total: z.number().int(), by_kind: count }),
  recent_failures: z.array(z.looseObject({ kind: z.enum(['run', 'query']), id: z.string(), status: z.string(), at: z.string().nullable(), error: z.string().nullable() })),
  usage: z.looseObject({ month: z.string() }),
  billing_status: z.string(),
});
const datasetSchema = z.looseObject({ id: z.string(), kind: z.enum(['run', 'file']), source: z.string(), created_at: z.string(), url: z.string() });
const socialSchema = z.looseObject({ sources: z.array(z.looseObject({ source: z.string(), configured: z.boolean(), queries_7d: z.number().int() })) });
const studioSchema = z.looseObject({
  steps: z.array(z.record(z.string(), z.unknown())),
  runbooks: z.array(z.looseObject({ id: z.string(), name: z.string(), published: z.boolean(), steps: z.number().int(), updated_at: z.string() })),
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
    errors: { 401: 'Email or password is wrong' },
  },
  'session.me': {
    summary: 'The logged-in console user or key',
    success: { 200: { description: 'Who is calling', schema: z.object({ principal: z.object({ type: z.enum(['key', 'user']), id: z.string() }), tenant: z.object({ tenant_id: z.string(), name: z.string() }) }) } },
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
    errors: { 404: 'No such key' },
  },
  'keys.revoke': { summary: 'Revoke a key at once', params: keyIdParams, success: { 204: { description: 'Revoked' } }, errors: { 404: 'No such key' } },
  'console.index': { summary: 'The web console (HTML; no key needed, the page logs in itself)', success: asset, errors: { 404: 'The console is not installed' } },
  'console.asset': { summary: 'A static file of the web console (JavaScript, CSS, icons); 404 for anything else', params: consoleAssetParams, success: asset, errors: { 404: 'No such console file' } },
  'datasets.list': {
    summary: 'Collected data: succeeded runs with items (kind=runs) or stored result files (kind=files)',
    query: datasetsQuery,
    success: { 200: { description: 'Data sets', schema: listOf(datasetSchema) } },
  },
  'monitoring.get': { summary: 'Last 24 h of runs, queries and challenges; recent failures; usage this month against the plan', success: { 200: { description: 'Monitoring', schema: monitoringSchema } } },
  'social.get': { summary: "Each social source's connection state and use by queries in the last 7 days", success: { 200: { description: 'Sources', schema: socialSchema } } },
  'studio.get': { summary: 'Runbook editor catalogue: JSON Schema of every step action, and the runbooks', success: { 200: { description: 'Catalogue', schema: studioSchema } } },
  'profiles.list': {
    summary: 'Browser profiles (antidetect): rendering settings only; the User-Agent always identifies Gleaner',
    query: pageQuery,
    success: { 200: { description: 'Profiles', schema: listOf(profileSchema) } },
  },
  'profiles.create': {
    summary: 'Create a browser profile: viewport, scale, mobile, locale, time zone, colour scheme',
    body: profileBodySchema,
    requestExample: { name: 'Berlin phone', viewport: { width: 390, height: 844 }, is_mobile: true, locale: 'de-DE', timezone: 'Europe/Berlin' },
    success: { 201: { description: 'The profile', schema: profileSchema } },
  },
  'profiles.get': { summary: 'A browser profile', params: profileIdParams, success: { 200: { description: 'The profile', schema: profileSchema } }, errors: { 404: 'No such profile' } },
  'profiles.put': { summary: 'Replace a browser profile', params: profileIdParams, body: profileBodySchema, success: { 200: { description: 'The profile', schema: profileSchema } }, errors: { 404: 'No such profile' } },
  'profiles.delete': { summary: 'Delete a browser profile', params: profileIdParams, success: { 204: { description: 'Deleted' } }, errors: { 404: 'No such profile' } },
  'audit.list': {
    summary: "The tenant's audit records, newest first",
    query: auditListQuery,
    success: { 200: { description: 'Audit records', schema: listOf(auditRecordSchema) } },
  },
});
