import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalChromiumLauncher } from '../../../functions/adapters/local/chromium-launcher.js';
import { LambdaChromiumLauncher } from '../../../functions/adapters/aws/chromium-launcher.js';
import { hardenedArgs } from '../../../functions/adapters/browser/chromium-profile.js';
import { BrowserSession } from '../../../functions/core/engine/fetch-browser.js';
import type { BrowserLauncher } from '../../../functions/ports/browser.js';
import { governance, TEST_UA } from './harness.js';

/**
 * No UDP leaves Chromium for any page: the egress proxy only carries TCP. A loopback UDP canary
 * stands in for a STUN/TURN server; the page tries every way we know to make Chromium send UDP.
 */
let udp: Socket;
let packets = 0;
let site: Server;
let port = 0;

/** The hostile page: peer connections (main frame, scripted iframe, popup) and WebTransport, results in #out. */
const page = (udpPort: number) => `<!doctype html><html><head><title>udp</title></head><body><pre id="out"></pre><script>
(async () => {
  const res = { types: {}, candidates: [], errors: [] };
  const ice = { iceServers: [{ urls: 'stun:127.0.0.1:${udpPort}' }, { urls: 'turn:127.0.0.1:${udpPort}?transport=udp', username: 'u', credential: 'p' }, { urls: 'stun:localhost:${udpPort}' }] };
  const peer = async (w, tag) => {
    res.types[tag] = w ? typeof w.RTCPeerConnection : 'no window';
    const PC = w && (w.RTCPeerConnection || w.webkitRTCPeerConnection);
    if (!PC) return;
    try {
      const pc = new PC(ice);
      pc.createDataChannel('x');
      pc.onicecandidate = (e) => e.candidate && res.candidates.push(tag + ' ' + e.candidate.candidate);
      await pc.setLocalDescription(await pc.createOffer());
    } catch (e) { res.errors.push(tag + ' ' + e); }
  };
  await peer(window, 'main');
  const f = document.createElement('iframe');
  document.body.appendChild(f);
  await peer(f.contentWindow, 'iframe');
  let popup = null;
  try { popup = window.open('about:blank'); } catch (e) {}
  await peer(popup, 'popup');
  res.types.webtransport = typeof WebTransport;
  // Workers get no injected script: the flags alone must keep their WebTransport (QUIC) off UDP.
  res.worker = await new Promise((resolve) => {
    const w = new Worker(URL.createObjectURL(new Blob(['(async () => { if (typeof WebTransport !== "function") return postMessage("none"); try { await new WebTransport("https://127.0.0.1:${udpPort}/").ready; postMessage("open"); } catch (e) { postMessage("failed"); } })()'])));
    w.onmessage = (e) => resolve(e.data);
  });
  if (typeof WebTransport === 'function') {
    try { await new WebTransport('https://127.0.0.1:${udpPort}/').ready; } catch (e) { res.errors.push('webtransport ' + e); }
  }
  // Give ICE gathering time to send its STUN/TURN requests before reporting.
  setTimeout(() => { document.getElementById('out').textContent = JSON.stringify(res); document.body.insertAdjacentHTML('beforeend', '<p id="done">done</p>'); }, 2500);
})();
</script></body></html>`;

beforeAll(async () => {
  udp = createSocket('udp4');
  udp.on('message', () => packets++);
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  const udpPort = (udp.address() as AddressInfo).port;
  site = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(req.url === '/' ? page(udpPort) : '');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  port = (site.address() as AddressInfo).port;
});

afterAll(async () => {
  udp?.close();
  await new Promise((r) => site?.close(r));
});

async function visit(launcher: BrowserLauncher) {
  const { guard } = governance(port);
  const session = await BrowserSession.start({ launcher, guard, userAgent: TEST_UA });
  try {
    const r = await session.fetch(`http://127.0.0.1:${port}/`, { waitFor: '#done' });
    const out = /<pre id="out">([^<]*)<\/pre>/.exec(r.html)?.[1] ?? '{}';
    return JSON.parse(out.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as { types: Record<string, string>; candidates: string[]; errors: string[]; worker: string };
  } finally {
    await session.close();
    await guard.close();
  }
}

describe('no UDP from Chromium', () => {
  it.each([
    ['local launcher (@sparticuz fallback here)', () => new LocalChromiumLauncher()],
    ['Lambda launcher', () => new LambdaChromiumLauncher()],
  ])('%s: a page trying WebRTC and WebTransport sends no UDP packet', async (_name, make) => {
    // Act
    const res = await visit(make());
    // Assess: nothing reached the canary, no candidate (host/mDNS/srflx/relay) was gathered,
    // and the page never saw a peer connection API, in any frame.
    expect(packets).toBe(0);
    expect(res.candidates).toEqual([]);
    expect(res.types).toMatchObject({ main: 'undefined', iframe: 'undefined', popup: 'no window', webtransport: 'undefined' });
    expect(['none', 'failed']).toContain(res.worker);
  });

  it('merges feature lists into one switch (Chromium keeps only the last --disable-features)', () => {
    const args = hardenedArgs(['--disable-features=IsolateOrigins,site-per-process', '--enable-features=SharedArrayBuffer,WebRtcHideLocalIpsWithMdns', '--no-sandbox', '--disable-web-security']);
    expect(args).not.toContain('--disable-web-security');
    expect(args.filter((a) => a.startsWith('--disable-features='))).toHaveLength(1);
    const disabled = args.find((a) => a.startsWith('--disable-features='))!.split('=')[1].split(',');
    expect(disabled).toEqual(expect.arrayContaining(['IsolateOrigins', 'site-per-process', 'WebRtcHideLocalIpsWithMdns']));
    expect(args).toContain('--enable-features=SharedArrayBuffer');
    expect(args).toEqual(expect.arrayContaining(['--disable-quic', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp', '--no-sandbox']));
  });

  it('turns off the features that rebuild a reused tab\'s frame on every navigation, even when asked for', () => {
    const args = hardenedArgs(['--enable-features=RenderDocument,SharedArrayBuffer']);
    const disabled = args.find((a) => a.startsWith('--disable-features='))!.split('=')[1].split(',');
    expect(disabled).toEqual(expect.arrayContaining(['RenderDocument', 'ProactivelySwapBrowsingInstance']));
    expect(args).toContain('--enable-features=SharedArrayBuffer');
  });
});
