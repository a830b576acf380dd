import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressCheck } from '../../../functions/core/governance/egress-check.js';
import { guardedDomainProbe } from '../../../functions/core/domains/verify-probe.js';
import { startCanary, startFixtureSite, type Canary, type FixtureSite } from '../../fixtures/site/server.js';

// The probe behind POST /dashboard/api/domains/{host}/verify: every hop through the egress check,
// on loopback only (the canary's port is never allowed, so it must see zero connections).
let site: FixtureSite;
let slow: FixtureSite;
let canary: Canary;
let check: EgressCheck;

beforeAll(async () => {
  canary = await startCanary();
  site = await startFixtureSite({ canaryUrl: canary.url });
  slow = await startFixtureSite({ latencyMs: 2_000 });
  // The resolver throws: nothing here may look a name up.
  check = new EgressCheck({ allow: [`127.0.0.1:${site.port}`, `127.0.0.1:${slow.port}`], userAgent: 'GleanerBot/test', resolve: async (h) => { throw new Error(`unexpected DNS lookup of ${h}`); } });
});
afterAll(async () => {
  await site?.close();
  await slow?.close();
  await canary?.close();
});

describe('domain verification probe', () => {
  it('fetches the token file from an allowed host, identifying itself', async () => {
    site.verificationTokens.set('tok123', 'tok123\n');
    const probe = guardedDomainProbe(check, { dns: false });
    expect(await probe.fetchText(`${site.baseUrl}/.well-known/gleaner-verification/tok123.txt`)).toEqual({ status: 200, body: 'tok123\n' });
    expect(await probe.fetchText(`${site.baseUrl}/.well-known/gleaner-verification/other.txt`)).toMatchObject({ status: 404 });
    const ua = await probe.fetchText(`${site.baseUrl}/echo-ua`);
    expect(ua.body).toContain('GleanerBot/test');
  });

  it('refuses a loopback port that is not allowed before connecting', async () => {
    const probe = guardedDomainProbe(check, { dns: false });
    await expect(probe.fetchText(`${canary.url}.well-known/gleaner-verification/x.txt`)).rejects.toMatchObject({ code: 'target_forbidden', message: expect.stringContaining('not a public address (range loopback)') });
    expect(canary.connections()).toBe(0);
  });

  it('re-checks every redirect hop: a redirect to a refused address never connects', async () => {
    const probe = guardedDomainProbe(check, { dns: false });
    await expect(probe.fetchText(`${site.baseUrl}/redirect-canary`)).rejects.toMatchObject({ code: 'target_forbidden' });
    expect(canary.connections()).toBe(0);
    // A redirect within the allowed host is followed.
    expect((await probe.fetchText(`${site.baseUrl}/redirect-local`)).status).toBe(200);
  });

  it('caps the body and the time it waits', async () => {
    await expect(guardedDomainProbe(check, { dns: false, maxBytes: 64 }).fetchText(`${site.baseUrl}/pages/1`)).rejects.toThrow('larger than 64 bytes');
    await expect(guardedDomainProbe(check, { dns: false, timeoutMs: 200 }).fetchText(`${slow.baseUrl}/about`)).rejects.toThrow('no answer within 0.2 s');
  });

  it('offers DNS TXT only when asked (aws mode)', () => {
    expect(guardedDomainProbe(check, { dns: false }).resolveTxt).toBeUndefined();
    expect(typeof guardedDomainProbe(check, { dns: true }).resolveTxt).toBe('function');
  });
});
