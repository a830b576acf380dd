import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import { badRequest, notFound } from '../errors.js';
import type { QueryPage, Table } from '../../ports/table.js';

const validTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/**
 * A browser profile (console "antidetect"): how pages are rendered (viewport, locale, time
 * zone, colour scheme, touch). Deliberately nothing that hides who is asking: Gleaner always
 * sends its identifying User-Agent, never spoofs fingerprints, never rotates identities and
 * never solves challenges. Profiles make pages render as a given audience sees them.
 */
export const profileBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  viewport: z.strictObject({ width: z.number().int().min(320).max(3840), height: z.number().int().min(240).max(2160) }).default({ width: 1280, height: 900 }),
  device_scale_factor: z.number().min(1).max(3).default(1),
  is_mobile: z.boolean().default(false),
  locale: z.string().regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'locale must be a BCP 47 tag such as en-US').default('en-US'),
  timezone: z.string().max(64).refine(validTimeZone, 'timezone must be an IANA time zone such as Europe/Berlin').default('UTC'),
  color_scheme: z.enum(['light', 'dark']).default('light'),
});
export type ProfileBody = z.infer<typeof profileBodySchema>;
export type BrowserProfile = ProfileBody & { profile_id: string; created_at: string; updated_at: string };

const strip = (i: Record<string, unknown>): BrowserProfile => {
  const { pk: _p, sk: _s, ...rest } = i;
  return rest as unknown as BrowserProfile;
};

export async function createProfile(table: Table, tenantId: string, body: ProfileBody, now: Date): Promise<BrowserProfile> {
  const p: BrowserProfile = { profile_id: newId('prf'), ...body, created_at: now.toISOString(), updated_at: now.toISOString() };
  await table.put({ ...keys.record(tenantId, 'PRF', p.profile_id), ...p });
  return p;
}

export async function getProfile(table: Table, tenantId: string, id: string): Promise<BrowserProfile> {
  const i = await table.get(keys.record(tenantId, 'PRF', id));
  if (!i) throw notFound('Browser profile');
  return strip(i);
}

/** For run/scrape input: a 400 (not 404) naming the field when the profile does not exist. */
export async function resolveProfile(table: Table, tenantId: string, id: string | undefined): Promise<BrowserProfile | undefined> {
  if (!id) return undefined;
  const i = await table.get(keys.record(tenantId, 'PRF', id));
  if (!i) throw badRequest(`Unknown browser_profile ${id}`, [{ path: 'body.browser_profile', message: 'no such profile' }]);
  return strip(i);
}

export async function updateProfile(table: Table, tenantId: string, id: string, body: ProfileBody, now: Date): Promise<BrowserProfile> {
  const cur = await getProfile(table, tenantId, id);
  const p: BrowserProfile = { ...body, profile_id: id, created_at: cur.created_at, updated_at: now.toISOString() };
  await table.put({ ...keys.record(tenantId, 'PRF', id), ...p });
  return p;
}

export async function deleteProfile(table: Table, tenantId: string, id: string): Promise<void> {
  if (!(await table.delete(keys.record(tenantId, 'PRF', id)))) throw notFound('Browser profile');
}

export async function listProfiles(table: Table, tenantId: string, q: { limit: number; cursor?: string }) {
  const page: QueryPage = await table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: 'PRF#', descending: true, limit: q.limit, cursor: q.cursor });
  return { data: page.items.map(strip), next_cursor: page.cursor };
}
