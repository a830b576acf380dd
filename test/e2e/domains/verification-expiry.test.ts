import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { hostLimitsFor, VERIFICATION_TTL_DAYS } from '../../../functions/core/domains/verified-domains.js';
import { keys } from '../../../functions/core/table-keys.js';

/**
 * Issue 19 finding 1, verified domains: a token reached through a redirect to another host does
 * not verify, and a verification expires after VERIFICATION_TTL_DAYS (the domain counts as
 * unverified, its raised limits no longer apply, until it is verified again).
 */
let svc: TestService;
let owner: Server; // serves any token under /.well-known: the real owner of its host
let redirector: Server; // redirects its /.well-known to the owner's host
let ownerHost = '';
let redirectorHost = '';

const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));

beforeAll(async () => {
  owner = createServer((req, res) => {
    const m = /^\/\.well-known\/gleaner-verification\/([\w-]+)\.txt$/.exec(req.url ?? '');
    if (m) return res.writeHead(200, { 'content-type': 'text/plain' }).end(m[1]);
    res.writeHead(404).end();
  });
  ownerHost = `localhost:${await listen(owner)}`;
  redirector = createServer((req, res) => res.writeHead(302, { location: `http://${ownerHost}${req.url}` }).end());
  redirectorHost = `127.0.0.1:${await listen(redirector)}`;
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `${ownerHost},${redirectorHost}` });
});
afterAll(async () => {
  await svc?.destroy();
  await new Promise((r) => owner?.close(r));
  await new Promise((r) => redirector?.close(r));
});

const domains = (path = '', init: Parameters<TestService['call']>[1] = {}) => svc.call(`/dashboard/api/domains${path}`, init);

describe('domain verification', () => {
  it('a token served only by another host, reached through a redirect, does not verify', async () => {
    expect((await domains('', { method: 'POST', json: { host: redirectorHost } })).status).toBe(201);
    const v = await domains(`/${redirectorHost}/verify`, { method: 'POST' });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ status: 'pending', verified_at: null, error: expect.stringContaining('another host') });
    expect(await hostLimitsFor(svc.deps.table, svc.tenantId, redirectorHost)).toBeNull();
  });

  it(`expires ${VERIFICATION_TTL_DAYS} days after the last successful check, and verifying again renews it`, async () => {
    expect((await domains('', { method: 'POST', json: { host: ownerHost } })).status).toBe(201);
    expect((await domains(`/${ownerHost}/verify`, { method: 'POST' })).body.status).toBe('verified');
    expect((await domains(`/${ownerHost}/limits`, { method: 'PUT', json: { concurrency: 16, delay_ms: 0 } })).status).toBe(200);
    expect(await hostLimitsFor(svc.deps.table, svc.tenantId, ownerHost)).toEqual({ concurrency: 16, delay_ms: 0 });

    // The last check was longer ago than the lifetime.
    const old = new Date(Date.now() - (VERIFICATION_TTL_DAYS + 1) * 86_400_000).toISOString();
    await svc.deps.table.update(keys.record(svc.tenantId, 'DOM', ownerHost), { set: { verified_at: old } });
    const listed = (await domains()).body.data.find((d: { host: string }) => d.host === ownerHost);
    expect(listed).toMatchObject({ status: 'pending', error: expect.stringContaining('expired') });
    expect(await hostLimitsFor(svc.deps.table, svc.tenantId, ownerHost)).toBeNull();
    const limits = await domains(`/${ownerHost}/limits`, { method: 'PUT', json: { concurrency: 32, delay_ms: 0 } });
    expect(limits.status).toBe(409);
    expect(limits.body.code).toBe('domain_not_verified');

    const again = await domains(`/${ownerHost}/verify`, { method: 'POST' });
    expect(again.body).toMatchObject({ status: 'verified', error: null });
    expect(Date.parse(again.body.verified_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await hostLimitsFor(svc.deps.table, svc.tenantId, ownerHost)).toEqual({ concurrency: 16, delay_ms: 0 });
  });
});
