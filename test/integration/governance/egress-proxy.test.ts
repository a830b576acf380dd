import http from 'node:http';
import type { Duplex } from 'node:stream';
import { interceptors, ProxyAgent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EgressGuard } from '../../../functions/core/governance/egress-guard.js';
import { chromiumProxyArgs, startEgressProxy, type EgressProxy } from '../../../functions/core/governance/egress-proxy.js';
import { loopbackResolver, startCanary, startFixture, type Canary, type Fixture } from './loopback.js';

let canary: Canary;
let site: Fixture;
let guard: EgressGuard;
let proxy: EgressProxy;
const onBlocked = vi.fn();
let proxyPort: number;

beforeAll(async () => {
  canary = await startCanary();
  site = await startFixture((req, res) => {
    if (req.url === '/to-canary') return void res.writeHead(302, { location: `http://127.0.0.1:${canary.port}/` }).end();
    res.writeHead(200, { 'content-type': 'text/plain', 'x-seen-host': req.headers.host ?? '' }).end(`hello ${req.method} ${req.url}`);
  });
  // Plain "WebSocket": answer 101, then echo bytes. The proxy is transport-agnostic after the upgrade.
  site.server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
    if (head.length) socket.write(head);
    socket.pipe(socket);
  });
  const { resolve } = loopbackResolver({ 'site.test': ['127.0.0.1'], 'rebind.test': ['127.0.0.1'], localhost: ['127.0.0.1', '::1'] });
  guard = new EgressGuard({ allow: [site.hostPort, `site.test:${site.port}`], resolve, userAgent: 'GleanerBot/0.1', onBlocked });
  proxy = await startEgressProxy(guard);
  proxyPort = Number(new URL(proxy.url).port);
});
afterAll(async () => {
  await proxy.close();
  await guard.close();
  await Promise.all([canary.close(), site.close()]);
});
afterEach(() => expect(canary.connections()).toBe(0));

/** Raw CONNECT through the proxy; resolves with the status and, on 200, the tunnel socket. */
function connect(authority: string): Promise<{ status: number; socket: Duplex }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, method: 'CONNECT', path: authority });
    req.on('connect', (res, socket) => resolve({ status: res.statusCode!, socket }));
    req.on('error', reject);
    req.end();
  });
}

/** Read a whole HTTP/1.1 exchange over a raw socket (server closes the connection). */
function exchange(socket: Duplex, text: string): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    socket.on('data', (c) => (out += c));
    socket.on('close', () => resolve(out));
    socket.write(text);
  });
}

describe('egress proxy', () => {
  it('exposes the Chromium launch flags, loopback included', () => {
    expect(chromiumProxyArgs(proxy.url)).toEqual([
      `--proxy-server=${proxy.url}`,
      '--proxy-bypass-list=<-loopback>',
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    ]);
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('forwards absolute-URI requests to an allowed target (undici ProxyAgent, no tunnel)', async () => {
    const agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: false });
    const res = await request(`http://site.test:${site.port}/page?q=1`, { dispatcher: agent });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-seen-host']).toBe(`site.test:${site.port}`);
    expect(await res.body.text()).toBe('hello GET /page?q=1');
    await agent.close();
  });

  it('tunnels CONNECT to an allowed target (undici ProxyAgent, tunnel)', async () => {
    const agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: true });
    const res = await request(`${site.origin}/tunnelled`, { dispatcher: agent });
    expect(await res.body.text()).toBe('hello GET /tunnelled');
    await agent.close();
  });

  it('refuses absolute-URI requests to the canary with 403 and counts them', async () => {
    const before = proxy.blocked();
    const agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: false });
    const res = await request(`http://127.0.0.1:${canary.port}/secret`, { dispatcher: agent });
    expect(res.statusCode).toBe(403);
    expect(await res.body.text()).toMatch(/Blocked by egress guard: .*range loopback/);
    expect(proxy.blocked()).toBe(before + 1);
    expect(proxy.blockedUrls()).toContain(`http://127.0.0.1:${canary.port}/secret`);
    await agent.close();
  });

  it('refuses a redirect hop to the canary: the client follows it through the proxy', async () => {
    const agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: false }).compose(interceptors.redirect({ maxRedirections: 3 }));
    const res = await request(`${site.origin}/to-canary`, { dispatcher: agent });
    expect(res.statusCode).toBe(403);
    await res.body.dump();
    expect(proxy.blockedUrls()).toContain(`http://127.0.0.1:${canary.port}/`);
    await agent.close();
  });

  // Only loopback targets here: a test never sends traffic elsewhere, even to prove it is blocked.
  it.each(['127.0.0.1', 'localhost', 'rebind.test', '[::ffff:127.0.0.1]', '[::1]'])('refuses CONNECT %s:<canary> with 403', async (host) => {
    const before = proxy.blocked();
    const { status, socket } = await connect(`${host}:${canary.port}`);
    socket.destroy();
    expect(status).toBe(403);
    expect(proxy.blocked()).toBe(before + 1);
  });

  it('answers 502, not 403, when the name does not resolve', async () => {
    const before = proxy.blocked();
    const { status, socket } = await connect('unknown.test:443');
    socket.destroy();
    expect(status).toBe(502);
    expect(proxy.blocked()).toBe(before);
  });

  it('answers 400 to malformed CONNECT and origin-form requests, without counting them', async () => {
    const before = proxy.blocked();
    expect((await connect('no-port')).status).toBe(400);
    const res = await request(`${proxy.url}/not-a-proxy-request`);
    expect(res.statusCode).toBe(400);
    await res.body.dump();
    expect(proxy.blocked()).toBe(before);
  });

  it('splices a raw CONNECT tunnel (as Chromium does for https and wss)', async () => {
    const { status, socket } = await connect(site.hostPort);
    expect(status).toBe(200);
    const reply = await exchange(socket, `GET /raw HTTP/1.1\r\nHost: ${site.hostPort}\r\nConnection: close\r\n\r\n`);
    expect(reply).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(reply).toContain('hello GET /raw');
  });

  it('proxies a WebSocket upgrade sent as an absolute URI, and refuses one to the canary', async () => {
    const upgrade = (url: string) =>
      new Promise<{ status: number; socket?: Duplex }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: proxyPort, path: url, headers: { connection: 'Upgrade', upgrade: 'websocket', host: new URL(url).host } });
        req.on('upgrade', (res, socket) => resolve({ status: res.statusCode!, socket }));
        req.on('response', (res) => { res.resume(); resolve({ status: res.statusCode! }); });
        req.on('error', reject);
        req.end();
      });
    const ok = await upgrade(`ws://127.0.0.1:${site.port}/ws`);
    expect(ok.status).toBe(101);
    const echoed = await new Promise<string>((resolve) => {
      ok.socket!.once('data', (c) => resolve(String(c)));
      ok.socket!.write('ping');
    });
    expect(echoed).toBe('ping');
    ok.socket!.destroy();
    const before = proxy.blocked();
    expect((await upgrade(`http://127.0.0.1:${canary.port}/ws`)).status).toBe(403);
    expect(proxy.blocked()).toBe(before + 1);
  });

  it('reports refusals to the guard’s onBlocked as well', () => {
    expect(onBlocked).toHaveBeenCalledWith(`127.0.0.1:${canary.port}`, expect.stringMatching(/loopback/));
  });
});
