import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness.js';

// The browser engine's readiness rule (FetchTab.settle): a page whose requests came back and whose
// DOM stopped changing is done after a short idle window (15 ms), unless a timer, animation frame
// or idle callback it scheduled is due within the longer quiet window (150 ms), or it waits on
// work in flight (a fetch or its body, an XHR) or handed work on to itself
// (a posted message). These pages change their DOM
// after `load`, later than the idle window after their last change or request, so a rule that
// waited only the idle window would miss it (the fetch-then-timer, timer-chain and interval pages
// whatever the machine's speed): each must still be captured with its late content. No timing is
// asserted, only what the capture holds.

const page = (body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>settle</title></head><body><main><h1>Settle</h1><p id="out">waiting</p></main>
<script>const out = document.getElementById('out'); const put = (t) => { const p = document.createElement('p'); p.textContent = t; document.querySelector('main').append(p); };
const mark = (name) => name + '-' + 'marker';
${body}
</script></body></html>`;

const PAGES: Record<string, string> = {
  // A fetch whose answer comes 100 ms later and is written to the DOM.
  '/fetch-late': page(`addEventListener('load', () => fetch('/data?ms=100').then((r) => r.json()).then((d) => put(d.marker)));`),
  // A timer set at load that writes 140 ms later (after the idle window, within the quiet one).
  '/timer-late': page(`addEventListener('load', () => setTimeout(() => put(mark('timer')), 140));`),
  // The answer of a fetch starts a timer that writes 100 ms later.
  '/fetch-then-timer': page(`addEventListener('load', () => fetch('/data?ms=30').then((r) => r.json()).then((d) => setTimeout(() => put('chained-' + d.marker), 100)));`),
  // A chain of timers 100 ms apart, each writing a step, the last one the marker: quiet gaps
  // longer than the idle window, each with a timer due.
  '/timer-chain': page(`addEventListener('load', () => { const step = (n) => setTimeout(() => (n < 3 ? (put('step ' + n), step(n + 1)) : put(mark('chain'))), 100); step(1); });`),
  // An interval 60 ms apart that writes a step on each run and the marker on its fourth, then stops.
  '/interval': page(`addEventListener('load', () => { let n = 0; const id = setInterval(() => { if (++n < 4) return put('tick ' + n); clearInterval(id); put(mark('interval')); }, 60); });`),
  // Animation frames: the content is written after 6 frames (about 100 ms).
  '/frames': page(`addEventListener('load', () => { let n = 0; const step = () => (++n < 6 ? requestAnimationFrame(step) : put(mark('frame'))); requestAnimationFrame(step); });`),
  // Animation frames drawn slowly, as on a loaded machine: each of the first six works 60 ms, so
  // the seventh, which writes, comes about 400 ms after load, long after the 150 ms quiet window
  // (no DOM change, no request meanwhile), yet within the eight frames readiness also waits for.
  '/slow-frames': page(`addEventListener('load', () => { let n = 0; const step = () => { const t = performance.now(); while (performance.now() - t < 60) {} if (++n < 7) requestAnimationFrame(step); else put(mark("slow-frame")); }; requestAnimationFrame(step); });`),
  // An XHR whose answer comes 100 ms later and is written in its load handler.
  '/xhr-late': page(`addEventListener('load', () => { const x = new XMLHttpRequest(); x.open('GET', '/data?ms=100'); x.onload = () => put('xhr-' + JSON.parse(x.responseText).marker); x.send(); });`),
  // A script added at load whose source comes 100 ms later and writes when it runs.
  '/script-late': page(`addEventListener('load', () => { const s = document.createElement('script'); s.src = '/late.js?ms=100'; document.body.append(s); });`),
  // A scheduler that works in 5 ms slices, each handing the next on through a MessageChannel (as
  // React's does), for about 100 ms without touching the DOM, then writes: no timer, no request.
  '/channel-slices': page(`addEventListener('load', () => { const ch = new MessageChannel(); let n = 0;
    ch.port1.onmessage = () => { const t = performance.now(); while (performance.now() - t < 5) {} if (++n < 20) ch.port2.postMessage(0); else put(mark('slices')); };
    ch.port2.postMessage(0); });`),
  // Work put off until the browser is idle.
  '/idle-callback': page(`addEventListener('load', () => requestIdleCallback(() => put(mark('idle')), { timeout: 200 }));`),
  // (Markers are put together at run time: the page's own script text is in its HTML too.)
  // The timer API as pages use it: ids, extra arguments, clearing, string handlers, `this`.
  '/timer-api': page(`
    const results = [];
    const cleared = setTimeout(() => results.push('cleared timer ran'), 20);
    clearTimeout(cleared);
    setTimeout(function (a, b) { results.push(this === window && a === 1 && b === 'two' ? 'args ok' : 'args wrong'); }, 10, 1, 'two');
    window.stringTimer = () => results.push('string ok');
    setTimeout('stringTimer()', 10);
    const f = requestAnimationFrame(() => results.push('cancelled frame ran'));
    cancelAnimationFrame(f);
    let message = 'no message';
    addEventListener('message', (e) => { message = 'message ' + e.data; });
    postMessage('ok', '*');
    const x = new XMLHttpRequest();
    x.open('GET', '/data?ms=0', false);
    x.send();
    const sync = x.status === 200 ? 'sync xhr ok' : 'sync xhr wrong';
    setTimeout(() => put('api: ' + (typeof cleared === 'number' ? 'id ok ' : 'id wrong ') + results.join(', ') + ' | ' + message + ' | ' + sync), 60);`),
};

let server: http.Server;
let base = '';
let h: Harness;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/robots.txt') return res.writeHead(404).end();
    if (u.pathname === '/late.js') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/javascript' }).end(`put('script-' + 'marker');`), Number(u.searchParams.get('ms')));
      return;
    }
    if (u.pathname === '/data') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ marker: 'fetch-marker' })), Number(u.searchParams.get('ms')));
      return;
    }
    const html = PAGES[u.pathname];
    if (!html) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  h = makeHarness({ fixturePort: port });
});

afterAll(async () => {
  await h?.close();
  await new Promise((r) => server?.close(r));
});

const scrape = (path: string) => h.engine.scrapePage(`${base}${path}`, { engine: 'browser', formats: ['html'] });

describe('browser engine readiness: content written after load', () => {
  it('waits for a fetch that answers 100 ms later and writes to the DOM', async () => {
    expect((await scrape('/fetch-late')).html).toContain('fetch-marker');
  });

  it('waits for a timer set at load that writes 140 ms later', async () => {
    expect((await scrape('/timer-late')).html).toContain('timer-marker');
  });

  it('waits for a timer started by a fetch answer', async () => {
    expect((await scrape('/fetch-then-timer')).html).toContain('chained-fetch-marker');
  });

  it('waits for a chain of timers 100 ms apart, each writing a step', async () => {
    expect((await scrape('/timer-chain')).html).toContain('chain-marker');
  });

  it('waits for an interval that writes on each run and the content on its fourth', async () => {
    expect((await scrape('/interval')).html).toContain('interval-marker');
  });

  it('waits for an XHR that answers 100 ms later and writes in its load handler', async () => {
    expect((await scrape('/xhr-late')).html).toContain('xhr-fetch-marker');
  });

  it('waits for a script added at load that loads 100 ms later and writes when it runs', async () => {
    expect((await scrape('/script-late')).html).toContain('script-marker');
  });

  it('waits for a scheduler working in slices it hands on through a MessageChannel, 100 ms without a DOM change', async () => {
    expect((await scrape('/channel-slices')).html).toContain('slices-marker');
  });

  it('waits for work put off until the browser is idle', async () => {
    expect((await scrape('/idle-callback')).html).toContain('idle-marker');
  });

  it('waits for animation frames that write on the sixth', async () => {
    expect((await scrape('/frames')).html).toContain('frame-marker');
  });

  it('counts frames as well as time: frames drawn slowly still get to write', async () => {
    expect((await scrape('/slow-frames')).html).toContain('slow-frame-marker');
  });

  it('leaves the page its timer API as it was (ids, arguments, this, clearing, string handlers), and its messages and XHRs', async () => {
    expect((await scrape('/timer-api')).html).toContain('api: id ok args ok, string ok | message ok | sync xhr ok<');
  });

  it('settles each page the same on a reused tab', async () => {
    const again = await Promise.all(['/timer-late', '/fetch-then-timer', '/frames'].map(scrape));
    expect(again.map((r) => /(timer|chained-fetch|frame)-marker/.exec(r.html ?? '')?.[0])).toEqual(['timer-marker', 'chained-fetch-marker', 'frame-marker']);
  });
});
