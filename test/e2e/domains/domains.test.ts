import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startCanary, startFixtureSite, type Canary, type FixtureSite } from '../../fixtures/site/server.js';
import { run as admin } from '../../../functions/cli/admin.js';

// Verified domains end to end (API.md "Verified domains and large crawls"): the fixture site on
// loopback is in GLEANER_EGRESS_ALLOW; the canary's port is not, so the guard must refuse it
// before any connection.
let svc: TestService;
let site: FixtureSite;
let canary: Canary;
let host: string;
let other: string;

beforeAll(async () => {
  site = await startFixtureSite();
  canary = await startCanary();
  host = `127.0.0.1:${site.port}`;
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: host });
  other = ((await admin(['tenants', 'create', '--name', 'other'], svc.deps.table)) as { api_key: string }).api_key;
});
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
  await canary?.close();
});

const domains = (path = '', init: Parameters<TestService['call']>[1] = {}) => svc.call(`/dashboard/api/domains${path}`, init);

describe('verified domains', () => {
  it('adds a host as pending with its token, verify_url and TXT record; adding it again returns the same one', async () => {
    const r = await domains('', { method: 'POST', json: { host } });
    expect(r.status).toBe(201);
    const token = r.body.token as string;
    expect(r.body).toMatchObject({
      host,
      status: 'pending',
      verify_url: `http://${host}/.well-known/gleaner-verification/${token}.txt`,
      txt_record: `_gleaner.127.0.0.1 TXT "gleaner-verification=${token}"`,
      verified_at: null,
      limits: null,
    });
    const again = await domains('', { method: 'POST', json: { host: host.toUpperCase() } });
    expect(again.status).toBe(200);
    expect(again.body.token).toBe(token);
    for (const bad of ['https://example.com', 'example.com/path', 'a b.com', '']) {
      const b = await domains('', { method: 'POST', json: { host: bad } });
      expect(b.status, bad).toBe(400);
      expect(b.body.code).toBe('invalid_request');
    }
  });

  it('refuses limits before verification, and verifies only when the token is served', async () => {
    const limits = await domains(`/${host}/limits`, { method: 'PUT', json: { concurrency: 32, delay_ms: 0 } });
    expect(limits.status).toBe(409);
    expect(limits.body.code).toBe('domain_not_verified');

    const missing = await domains(`/${host}/verify`, { method: 'POST' });
    expect(missing.status).toBe(200);
    expect(missing.body).toMatchObject({ status: 'pending', verified_at: null });
    expect(missing.body.error).toContain('HTTP 404');
    expect(missing.body.checked_at).toEqual(expect.any(String));

    const { token } = missing.body;
    site.verificationTokens.set(token, 'not-the-token');
    const wrong = await domains(`/${host}/verify`, { method: 'POST' });
    expect(wrong.body.status).toBe('pending');
    expect(wrong.body.error).toContain('does not contain the token');

    const hits = site.hits(`/.well-known/gleaner-verification/${token}.txt`);
    site.verificationTokens.set(token, `${token}\n`);
    const ok = await domains(`/${host}/verify`, { method: 'POST' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'verified', error: null, verified_at: expect.any(String) });
    expect(site.hits(`/.well-known/gleaner-verification/${token}.txt`)).toBe(hits + 1);

    const tooFast = await domains(`/${host}/limits`, { method: 'PUT', json: { concurrency: 65, delay_ms: 0 } });
    expect(tooFast.status).toBe(400);
    const set = await domains(`/${host}/limits`, { method: 'PUT', json: { concurrency: 32, delay_ms: 0 } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ host, status: 'verified', limits: { concurrency: 32, delay_ms: 0 } });

    const list = await domains();
    expect(list.status).toBe(200);
    expect(list.body.next_cursor).toBeNull();
    expect(list.body.data).toEqual([expect.objectContaining({ host, status: 'verified', limits: { concurrency: 32, delay_ms: 0 } })]);
  });

  it('another tenant can neither see nor use the domain', async () => {
    expect((await domains('', { key: other })).body.data).toEqual([]);
    expect((await domains(`/${host}/verify`, { method: 'POST', key: other })).status).toBe(404);
    expect((await domains(`/${host}/limits`, { method: 'PUT', json: { concurrency: 2, delay_ms: 100 }, key: other })).status).toBe(404);
    expect((await domains(`/${host}`, { method: 'DELETE', key: other })).status).toBe(404);
    // Its own record of the same host starts pending with another token: the first tenant's proof is not shared.
    const mine = (await domains()).body.data[0];
    const theirs = await domains('', { method: 'POST', json: { host }, key: other });
    expect(theirs.status).toBe(201);
    expect(theirs.body.status).toBe('pending');
    expect(theirs.body.token).not.toBe(mine.token);
    expect((await domains(`/${host}/limits`, { method: 'PUT', json: { concurrency: 2, delay_ms: 100 }, key: other })).status).toBe(409);
    expect((await domains()).body.data[0].limits).toEqual({ concurrency: 32, delay_ms: 0 });
  });

  it('refuses a private address that is not in GLEANER_EGRESS_ALLOW at verify time, without connecting', async () => {
    const blocked = `127.0.0.1:${canary.port}`;
    const add = await domains('', { method: 'POST', json: { host: blocked } });
    expect(add.status).toBe(201);
    expect(add.body.verify_url).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${canary.port}/`));
    const v = await domains(`/${blocked}/verify`, { method: 'POST' });
    expect(v.status).toBe(200);
    expect(v.body.status).toBe('pending');
    expect(v.body.error).toMatch(/not a public address \(range loopback\)/);
    expect(canary.connections()).toBe(0);
    expect((await domains(`/${blocked}/limits`, { method: 'PUT', json: { concurrency: 64, delay_ms: 0 } })).status).toBe(409);
  });

  it('answers 400 for a malformed host in the path and 404 for an unknown one', async () => {
    expect((await domains('/a%20b/verify', { method: 'POST' })).status).toBe(400);
    expect((await domains('/unknown.example.com/verify', { method: 'POST' })).status).toBe(404);
    expect((await domains('/unknown.example.com', { method: 'DELETE' })).status).toBe(404);
  });

  it('deletes a domain', async () => {
    expect((await domains(`/${host}`, { method: 'DELETE' })).status).toBe(204);
    expect((await domains()).body.data.map((d: { host: string }) => d.host)).not.toContain(host);
    expect((await domains(`/${host}`, { method: 'DELETE' })).status).toBe(404);
    // The other tenant's record of the host is untouched.
    expect((await domains('', { key: other })).body.data.map((d: { host: string }) => d.host)).toEqual([host]);
  });
});
