import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { AppError, ConditionFailedError, notFound } from '../errors.js';
import { keys } from '../table-keys.js';
import type { Table } from '../../ports/table.js';

/**
 * Verified domains (API.md "Verified domains and large crawls"): a tenant proves it controls a
 * host, by a token served at `/.well-known/gleaner-verification/<token>.txt` or a DNS TXT record,
 * and may then raise that host's crawl limits for its own runs. Unverified hosts keep the polite
 * defaults and robots.txt's crawl-delay.
 */

/** `host` as a URL shows its authority: a lowercase DNS name or IP literal, with an optional port. */
export const hostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(260)
  .refine((h) => {
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(h)) return false;
    try {
      const u = new URL(`http://${h}/`);
      return u.host === h || `${u.hostname}:${u.port}` === h;
    } catch {
      return false;
    }
  }, 'host must be a host name (and optional port) as a URL shows it, e.g. docs.example.com or 127.0.0.1:4100');

export const domainCreateSchema = z.strictObject({ host: hostSchema });
export const domainLimitsSchema = z.strictObject({
  concurrency: z.int().min(1).max(64).describe('Requests in flight on this host for this tenant\'s runs'),
  delay_ms: z.int().min(0).max(60_000).describe('Spacing between request starts; replaces robots.txt crawl-delay'),
});
export type DomainLimits = z.infer<typeof domainLimitsSchema>;

export interface VerifiedDomain {
  host: string;
  status: 'pending' | 'verified';
  token: string;
  verify_url: string;
  txt_record: string;
  created_at: string;
  verified_at: string | null;
  checked_at: string | null;
  error: string | null;
  limits: DomainLimits | null;
}

const storedSchema = z.object({
  host: z.string(),
  status: z.enum(['pending', 'verified']),
  token: z.string(),
  verify_url: z.string(),
  txt_record: z.string(),
  created_at: z.string(),
  verified_at: z.string().nullable().default(null),
  checked_at: z.string().nullable().default(null),
  error: z.string().nullable().default(null),
  limits: domainLimitsSchema.nullable().default(null),
});

const key = (tenantId: string, host: string) => keys.record(tenantId, 'DOM', host);

/**
 * A verification holds this long after the last successful check (issue 19 finding 1): control
 * of a host can change hands (an expired domain, a new owner), so a domain verified longer ago
 * than this counts as unverified (status `pending`, `error` saying it expired, raised limits not
 * applied) until POST /dashboard/api/domains/{host}/verify succeeds again, which renews it.
 */
export const VERIFICATION_TTL_DAYS = 30;
const TTL_MS = VERIFICATION_TTL_DAYS * 86_400_000;

/** Is a stored verification still current at `now`? */
const current = (d: VerifiedDomain, now: Date) => d.status === 'verified' && d.verified_at !== null && now.getTime() - Date.parse(d.verified_at) < TTL_MS;

/** What verification reads from the outside world (both go through the egress guard / resolver). */
export interface DomainProbe {
  /** GET `url` (through the egress guard); the body as text, or throws with a readable message. */
  fetchText(url: string): Promise<{ status: number; body: string }>;
  /** TXT records of `name`; absent where DNS is not used (local mode, IP literals). */
  resolveTxt?(name: string): Promise<string[][]>;
}

/** https, except hosts exempted for local tests (GLEANER_EGRESS_ALLOW), which may be http. */
export const verifyScheme = (host: string, egressAllow: readonly string[]) => (egressAllow.includes(host) ? 'http' : 'https');

/** A stored domain as callers see it at `now`: an expired verification reads as pending. */
const read = (item: Record<string, unknown> | undefined, now = new Date()): VerifiedDomain | undefined => {
  if (!item) return undefined;
  const parsed = storedSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const d = parsed.data;
  if (d.status !== 'verified' || current(d, now)) return d;
  return { ...d, status: 'pending', error: `The verification of ${d.verified_at} expired after ${VERIFICATION_TTL_DAYS} days: verify again` };
};

export async function createDomain(table: Table, tenantId: string, host: string, egressAllow: readonly string[], now: Date): Promise<{ domain: VerifiedDomain; created: boolean }> {
  const token = randomBytes(18).toString('base64url');
  const domain: VerifiedDomain = {
    host,
    status: 'pending',
    token,
    verify_url: `${verifyScheme(host, egressAllow)}://${host}/.well-known/gleaner-verification/${token}.txt`,
    txt_record: `_gleaner.${host.replace(/:\d+$/, '')} TXT "gleaner-verification=${token}"`,
    created_at: now.toISOString(),
    verified_at: null,
    checked_at: null,
    error: null,
    limits: null,
  };
  try {
    await table.put({ ...key(tenantId, host), ...domain }, { condition: { expression: 'attribute_not_exists(pk)' } });
    return { domain, created: true };
  } catch (err) {
    if (!(err instanceof ConditionFailedError)) throw err;
    // Adding a host twice returns what is there (same token), not a second token.
    return { domain: await getDomain(table, tenantId, host), created: false };
  }
}

export async function getDomain(table: Table, tenantId: string, host: string): Promise<VerifiedDomain> {
  const d = read(await table.get(key(tenantId, host), { consistent: true }));
  if (!d) throw notFound('Domain');
  return d;
}

export async function listDomains(table: Table, tenantId: string): Promise<VerifiedDomain[]> {
  const out: VerifiedDomain[] = [];
  let cursor: string | undefined;
  do {
    const page = await table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: 'DOM#', cursor, limit: 200 });
    for (const i of page.items) {
      const d = read(i);
      if (d) out.push(d);
    }
    cursor = page.cursor ?? undefined;
  } while (cursor);
  return out;
}

export async function deleteDomain(table: Table, tenantId: string, host: string): Promise<void> {
  if (!(await table.delete(key(tenantId, host)))) throw notFound('Domain');
}

/**
 * Check the token now: the well-known file first (its body, trimmed, must be the token), then DNS
 * TXT when a resolver is given. A verified domain stays verified when a later check fails (the
 * failure is recorded in `error`); deleting the domain is how control is given up.
 */
export async function verifyDomain(table: Table, tenantId: string, host: string, probe: DomainProbe, now: Date): Promise<VerifiedDomain> {
  const d = await getDomain(table, tenantId, host);
  let ok = false;
  let error: string | null = null;
  try {
    const r = await probe.fetchText(d.verify_url);
    if (r.status === 200 && r.body.trim() === d.token) ok = true;
    else error = r.status === 200 ? `${d.verify_url} does not contain the token` : `${d.verify_url} answered HTTP ${r.status}`;
  } catch (err) {
    error = `${d.verify_url} could not be fetched: ${(err as Error).message}`;
  }
  if (!ok && probe.resolveTxt && !/^\[|^\d+\.\d+\.\d+\.\d+(:\d+)?$/.test(host)) {
    const name = `_gleaner.${host.replace(/:\d+$/, '')}`;
    try {
      const records = (await probe.resolveTxt(name)).map((parts) => parts.join(''));
      if (records.includes(`gleaner-verification=${d.token}`)) ok = true;
      else error = `${error}; no TXT record gleaner-verification=<token> at ${name}`;
    } catch (err) {
      error = `${error}; DNS TXT ${name}: ${(err as Error).message}`;
    }
  }
  const set: Record<string, unknown> = { checked_at: now.toISOString(), error: ok ? null : error };
  // Every successful check renews the verification (it expires VERIFICATION_TTL_DAYS after).
  if (ok) Object.assign(set, { status: 'verified', verified_at: now.toISOString() });
  await table.update(key(tenantId, host), { set, condition: { expression: 'attribute_exists(pk)' } }).catch((err) => {
    if (err instanceof ConditionFailedError) throw notFound('Domain');
    throw err;
  });
  return getDomain(table, tenantId, host);
}

/** Raise (or lower) this tenant's limits on a verified host; 409 domain_not_verified before that (or once it expired). */
export async function setDomainLimits(table: Table, tenantId: string, host: string, limits: DomainLimits, now = new Date()): Promise<VerifiedDomain> {
  try {
    await table.update(key(tenantId, host), {
      set: { limits },
      condition: {
        expression: 'attribute_exists(pk) AND #st = :v AND verified_at > :since',
        names: { '#st': 'status' },
        values: { ':v': 'verified', ':since': new Date(now.getTime() - TTL_MS).toISOString() },
      },
    });
  } catch (err) {
    if (!(err instanceof ConditionFailedError)) throw err;
    await getDomain(table, tenantId, host); // 404 when it does not exist at all
    throw new AppError(409, 'domain_not_verified', `${host} is not verified yet: serve the token and call POST /dashboard/api/domains/${host}/verify first`);
  }
  return getDomain(table, tenantId, host);
}

/**
 * The limits a tenant's runs use on `host` itself (never on the hosts it links or redirects to):
 * its own raised limits while its verification is current, else null (polite defaults).
 */
export async function hostLimitsFor(table: Table, tenantId: string, host: string, now = new Date()): Promise<DomainLimits | null> {
  const d = read(await table.get(key(tenantId, host.toLowerCase())), now);
  return d?.status === 'verified' ? d.limits : null;
}
