import tls from 'node:tls';
import type net from 'node:net';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../functions/core/errors.js';
import { EgressGuard } from '../../../functions/core/governance/egress-guard.js';
import { EgressTimeoutError, ResponseTooLargeError, TooManyRedirectsError } from '../../../functions/core/governance/egress-errors.js';
import { loopbackResolver, startCanary, startFixture, type Canary, type Fixture } from './loopback.js';

const UA = 'GleanerBot/0.1 (+test)';
let canary: Canary;
let site: Fixture;
let other: Fixture;
const seen: { path: string; method: string; ua?: string; auth?: string; body: string }[] = [];

beforeAll(async () => {
  canary = await startCanary();
  other = await startFixture((req, res) => {
    seen.push({ path: `other${req.url}`, method: req.method!, auth: req.headers.authorization, body: '' });
    res.end('other');
  });
  site = await startFixture((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ path: req.url!, method: req.method!, ua: req.headers['user-agent'], auth: req.headers.authorization, body });
      const go = (status: number, location: string) => res.writeHead(status, { location }).end();
      switch (req.url) {
        case '/hello': return void res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] }).end('hello');
        case '/r1': return go(301, '/r2');
        case '/r2': return go(302, `${site.origin}/hello`);
        case '/loop': return go(302, '/loop');
        case '/to-canary': return go(302, `http://127.0.0.1:${canary.port}/`);
        case '/to-canary-decimal': return go(302, `http://2130706433:${canary.port}/`);
        case '/to-canary-v6': return go(307, `http://[::ffff:127.0.0.1]:${canary.port}/`);
        case '/to-file': return go(302, 'file:///etc/passwd');
        case '/to-other': return go(302, `${other.origin}/landing`);
        case '/post-303': return go(303, '/hello');
        case '/post-307': return go(307, '/echo');
        case '/echo': return void res.end(`${req.method}:${body}`);
        case '/big-length': return void res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
        case '/big-chunked': res.writeHead(200); for (let i = 0; i < 50; i++) res.write(Buffer.alloc(100)); return void res.end();
        case '/slow': return; // never answers
        default: return void res.writeHead(404).end();
      }
    });
  });
});
afterAll(async () => Promise.all([canary.close(), site.close(), other.close()]));
afterEach(() => {
  seen.length = 0;
  expect(canary.connections()).toBe(0); // the invariant of the whole file
});

function guardWith(table: Parameters<typeof loopbackResolver>[0] = {}, allow = [site.hostPort, other.hostPort]) {
  const onBlocked = vi.fn();
  const { resolve, calls } = loopbackResolver(table);
  return { guard: new EgressGuard({ allow, resolve, userAgent: UA, onBlocked }), onBlocked, calls };
}

async function forbidden(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('target_forbidden');
  return err as AppError;
}

describe('EgressGuard.fetch over loopback', () => {
  it('fetches an allow-listed fixture with the identifying User-Agent', async () => {
    const { guard } = guardWith();
    const res = await guard.fetch(`${site.origin}/hello`);
    expect(res).toMatchObject({ url: `${site.origin}/hello`, status: 200, redirects: [] });
    expect(res.body.toString()).toBe('hello');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(res.timingMs).toBeGreaterThanOrEqual(0);
    expect(seen[0].ua).toBe(UA);
    await guard.close();
  });

  it('follows redirects manually and reports the chain', async () => {
    const { guard } = guardWith();
    const res = await guard.fetch(`${site.origin}/r1`);
    expect(res.url).toBe(`${site.origin}/hello`);
    expect(res.redirects).toEqual([`${site.origin}/r1`, `${site.origin}/r2`]);
    const raw = await guard.fetch(`${site.origin}/r1`, { maxRedirects: 0 });
    expect(raw.status).toBe(301);
    await expect(guard.fetch(`${site.origin}/loop`, { maxRedirects: 3 })).rejects.toBeInstanceOf(TooManyRedirectsError);
  });

  it.each([
    ['/to-canary', /range loopback/],
    ['/to-canary-decimal', /unusual IPv4 spelling/],
    ['/to-canary-v6', /range ipv4Mapped/],
    ['/to-file', /scheme "file"/],
  ])('refuses the redirect %s before any connection to the canary', async (path, why) => {
    const { guard, onBlocked } = guardWith();
    expect((await forbidden(guard.fetch(`${site.origin}${path}`))).message).toMatch(why);
    expect(onBlocked).toHaveBeenCalledOnce();
    expect((await forbidden(guard.fetchResponse(`${site.origin}${path}`))).message).toMatch(why);
    expect(canary.connections()).toBe(0);
  });

  it('refuses a non-allow-listed loopback port outright', async () => {
    const { guard } = guardWith({ localhost: ['127.0.0.1', '::1'] });
    await forbidden(guard.fetch(`http://127.0.0.1:${canary.port}/`));
    await forbidden(guard.fetch(`http://localhost:${canary.port}/`));
  });

  it('re-checks at connect time: a name that rebinds to loopback is refused (DNS rebinding)', async () => {
    // First answer (used by checkUrl) is public, as data only; every later answer is the canary's
    // loopback address. The connect-time check must refuse before dialling anything.
    let n = 0;
    const { guard, onBlocked, calls } = guardWith({ 'rebind.test': () => (n++ === 0 ? ['93.184.216.34'] : ['127.0.0.1']) });
    const err = await forbidden(guard.fetch(`http://rebind.test:${canary.port}/`));
    expect(err.message).toMatch(/rebind\.test:\d+ resolves to 127\.0\.0\.1 which is not a public address/);
    expect(calls).toEqual(['rebind.test', 'rebind.test']);
    expect(onBlocked).toHaveBeenCalledWith(`http://rebind.test:${canary.port}`, expect.stringMatching(/loopback/));
    expect(canary.connections()).toBe(0);
  });

  it('guards undici requests that use the dispatcher directly, without checkUrl', async () => {
    const { guard } = guardWith({ 'sneaky.test': ['127.0.0.1'] });
    await forbidden(request(`http://127.0.0.1:${canary.port}/`, { dispatcher: guard.dispatcher }));
    await forbidden(request(`http://sneaky.test:${canary.port}/`, { dispatcher: guard.dispatcher }));
    const ok = await request(`${site.origin}/hello`, { dispatcher: guard.dispatcher });
    expect(await ok.body.text()).toBe('hello');
  });

  it('caps the body with or without content-length', async () => {
    const { guard } = guardWith();
    await expect(guard.fetch(`${site.origin}/big-length`, { maxBytes: 1000 })).rejects.toBeInstanceOf(ResponseTooLargeError);
    await expect(guard.fetch(`${site.origin}/big-chunked`, { maxBytes: 1000 })).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect((await guard.fetch(`${site.origin}/big-chunked`, { maxBytes: 5000 })).body.length).toBe(5000);
  });

  it('times out', async () => {
    const { guard } = guardWith();
    await expect(guard.fetch(`${site.origin}/slow`, { timeoutMs: 200 })).rejects.toBeInstanceOf(EgressTimeoutError);
    await expect(guard.fetchResponse(`${site.origin}/slow`, { timeoutMs: 200 })).rejects.toBeInstanceOf(EgressTimeoutError);
  });

  it('applies redirect method rules: 303 becomes GET, 307 keeps method and body', async () => {
    const { guard } = guardWith();
    const r303 = await guard.fetch(`${site.origin}/post-303`, { method: 'POST', body: 'x=1' });
    expect(r303.body.toString()).toBe('hello');
    expect(seen.at(-1)).toMatchObject({ method: 'GET', body: '' });
    const r307 = await guard.fetch(`${site.origin}/post-307`, { method: 'POST', body: new URLSearchParams({ a: 'b' }) });
    expect(r307.body.toString()).toBe('POST:a=b');
  });

  it('drops Authorization on a cross-origin redirect', async () => {
    const { guard } = guardWith();
    const res = await guard.fetch(`${site.origin}/to-other`, { headers: { authorization: 'Bearer secret' } });
    expect(res.body.toString()).toBe('other');
    expect(seen[0].auth).toBe('Bearer secret');
    expect(seen[1]).toMatchObject({ path: 'other/landing', auth: undefined });
  });

  it('fetchResponse returns a standard Response after re-checked redirects', async () => {
    const { guard } = guardWith();
    const res = await guard.fetchResponse(`${site.origin}/r1`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello');
    const post = await guard.fetchResponse(`${site.origin}/echo`, { method: 'POST', body: JSON.stringify({ a: 1 }) });
    expect(await post.text()).toBe('POST:{"a":1}');
  });

  it('dials the vetted address but keeps the host name for TLS SNI', async () => {
    const names: string[] = [];
    const server = tls.createServer({ SNICallback: (name, cb) => { names.push(name); cb(new Error('no cert in test')); } });
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const { guard } = guardWith({ 'sni.test': ['127.0.0.1'] }, [`sni.test:${port}`]);
    await expect(guard.fetch(`https://sni.test:${port}/`, { timeoutMs: 5000 })).rejects.toThrow();
    expect(names).toEqual(['sni.test']);
    await new Promise((r) => server.close(r));
  });
});
