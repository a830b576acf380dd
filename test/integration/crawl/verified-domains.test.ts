import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDomain, deleteDomain, domainCreateSchema, getDomain, hostLimitsFor, listDomains, setDomainLimits, verifyDomain, type DomainProbe } from '../../../functions/core/domains/verified-domains.js';
import { AppError } from '../../../functions/core/errors.js';
import type { Table } from '../../../functions/ports/table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { memoryStores } from '../foundation/stores.js';

let table: Table;
let stores: EmbeddedStores;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

const now = new Date('2026-11-23T10:00:00.000Z');
/** A probe that serves whatever `files` holds (url -> body) and records what it was asked. */
const probe = (files: Record<string, string>, txt?: Record<string, string[][]>): DomainProbe & { asked: string[] } => {
  const asked: string[] = [];
  return {
    asked,
    async fetchText(url) {
      asked.push(url);
      return url in files ? { status: 200, body: files[url]! } : { status: 404, body: 'not found' };
    },
    ...(txt ? { resolveTxt: async (name: string) => txt[name] ?? [] } : {}),
  };
};

describe('verified domains', () => {
  it('accepts a host as a URL shows it and refuses anything else', () => {
    for (const ok of ['docs.example.com', 'Docs.Example.com', '127.0.0.1:4100', 'shop.example.co.uk:8443']) expect(domainCreateSchema.safeParse({ host: ok }).success).toBe(true);
    for (const bad of ['https://docs.example.com', 'docs.example.com/path', 'a b.com', 'user@host.com', '', 'host:99999', 'x.com?q']) expect(domainCreateSchema.safeParse({ host: bad }).success, bad).toBe(false);
  });

  it('creates a pending domain with a token, verify_url and TXT record; adding it again returns the same token', async () => {
    const { domain, created } = await createDomain(table, 'ten_a', 'docs.example.com', [], now);
    expect(created).toBe(true);
    expect(domain).toMatchObject({ host: 'docs.example.com', status: 'pending', verified_at: null, limits: null });
    expect(domain.verify_url).toBe(`https://docs.example.com/.well-known/gleaner-verification/${domain.token}.txt`);
    expect(domain.txt_record).toBe(`_gleaner.docs.example.com TXT "gleaner-verification=${domain.token}"`);
    const again = await createDomain(table, 'ten_a', 'docs.example.com', [], now);
    expect(again).toEqual({ domain, created: false });
    // Local test hosts (egress-allowed) are checked over http.
    expect((await createDomain(table, 'ten_a', '127.0.0.1:4100', ['127.0.0.1:4100'], now)).domain.verify_url).toMatch(/^http:\/\/127\.0\.0\.1:4100\//);
  });

  it('verifies by the well-known file, and limits can only be raised once verified', async () => {
    const { domain } = await createDomain(table, 'ten_b', 'shop.example.com', [], now);
    await expect(setDomainLimits(table, 'ten_b', 'shop.example.com', { concurrency: 32, delay_ms: 0 })).rejects.toMatchObject({ status: 409, code: 'domain_not_verified' });
    const wrong = await verifyDomain(table, 'ten_b', 'shop.example.com', probe({ [domain.verify_url]: 'someone-else' }), now);
    expect(wrong).toMatchObject({ status: 'pending', checked_at: now.toISOString() });
    expect(wrong.error).toContain('does not contain the token');
    const ok = await verifyDomain(table, 'ten_b', 'shop.example.com', probe({ [domain.verify_url]: `${domain.token}\n` }), now);
    expect(ok).toMatchObject({ status: 'verified', verified_at: now.toISOString(), error: null });
    expect(await hostLimitsFor(table, 'ten_b', 'shop.example.com')).toBeNull();
    const limited = await setDomainLimits(table, 'ten_b', 'shop.example.com', { concurrency: 32, delay_ms: 0 });
    expect(limited.limits).toEqual({ concurrency: 32, delay_ms: 0 });
    expect(await hostLimitsFor(table, 'ten_b', 'shop.example.com')).toEqual({ concurrency: 32, delay_ms: 0 });
    // Another tenant gets nothing from ten_b's verification.
    expect(await hostLimitsFor(table, 'ten_other', 'shop.example.com')).toBeNull();
  });

  it('verifies by DNS TXT when the file is missing (never for IP literals)', async () => {
    const { domain } = await createDomain(table, 'ten_c', 'blog.example.org', [], now);
    const v = await verifyDomain(table, 'ten_c', 'blog.example.org', probe({}, { '_gleaner.blog.example.org': [['gleaner-verification=', domain.token]] }), now);
    expect(v.status).toBe('verified');
    const ip = await createDomain(table, 'ten_c', '127.0.0.1:4200', [], now);
    const p = probe({}, { '_gleaner.127.0.0.1': [[`gleaner-verification=${ip.domain.token}`]] });
    expect((await verifyDomain(table, 'ten_c', '127.0.0.1:4200', p, now)).status).toBe('pending');
  });

  it('lists and deletes a tenant\'s domains; unknown hosts are 404', async () => {
    await createDomain(table, 'ten_d', 'a.example.com', [], now);
    await createDomain(table, 'ten_d', 'b.example.com', [], now);
    expect((await listDomains(table, 'ten_d')).map((d) => d.host)).toEqual(['a.example.com', 'b.example.com']);
    await deleteDomain(table, 'ten_d', 'a.example.com');
    expect((await listDomains(table, 'ten_d')).map((d) => d.host)).toEqual(['b.example.com']);
    await expect(getDomain(table, 'ten_d', 'a.example.com')).rejects.toBeInstanceOf(AppError);
    await expect(deleteDomain(table, 'ten_d', 'nope.example.com')).rejects.toMatchObject({ status: 404 });
    await expect(verifyDomain(table, 'ten_d', 'nope.example.com', probe({}), now)).rejects.toMatchObject({ status: 404 });
    await expect(setDomainLimits(table, 'ten_d', 'nope.example.com', { concurrency: 2, delay_ms: 10 })).rejects.toMatchObject({ status: 404 });
  });
});
