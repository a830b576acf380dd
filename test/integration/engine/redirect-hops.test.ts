import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressGuard } from '../../../functions/core/governance/egress-guard.js';
import { RobotsPolicy } from '../../../functions/core/governance/robots.js';
import type { TargetPolicy } from '../../../functions/core/governance/target-policy.js';
import { LocalChromiumLauncher } from '../../../functions/adapters/local/chromium-launcher.js';
import { BrowserSession } from '../../../functions/core/engine/fetch-browser.js';
import { createEngine, type Engine } from '../../../functions/core/engine/pipeline.js';
import type { EngineUsed, RawLogEntry } from '../../../functions/core/engine/types.js';
import { TEST_UA } from './harness.js';

/**
 * Issue 19 finding 1: every hop of a redirect passes robots.txt of its own host, the tenant's
 * target policy and its own host's politeness gate, in both engines. Two loopback sites are two
 * hosts: `127.0.0.1:<a>` (the tenant's page, which redirects) and `localhost:<b>` (the victim,
 * whose robots.txt disallows /private/ and asks for a crawl-delay).
 */
interface Site {
  server: Server;
  port: number;
  paths: string[];
}
let a: Site;
let b: Site;
let A = '';
let B = '';

function start(handler: (path: string, res: import('node:http').ServerResponse) => void): Promise<Site> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    handler(req.url ?? '/', res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, paths })));
}
const html = (res: import('node:http').ServerResponse, title: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${title}</title><p>${title}</p>`);

beforeAll(async () => {
  b = await start((p, res) => {
    if (p === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n');
    html(res, `victim ${p}`);
  });
  B = `http://localhost:${b.port}`;
  a = await start((p, res) => {
    if (p === '/robots.txt') return res.writeHead(404).end();
    if (p === '/to-private') return res.writeHead(302, { location: `${B}/private/page` }).end();
    if (p === '/to-open') return res.writeHead(301, { location: `${B}/open` }).end();
    if (p === '/chain') return res.writeHead(302, { location: '/to-private' }).end();
    if (p === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (p === '/with-private-frame') {
      return res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>framed</title><p>framed</p><iframe src="${B}/private/frame"></iframe>`);
    }
    if (p === '/script-hop') return res.writeHead(302, { location: `${B}/private/app.js` }).end();
    if (p === '/style-hop') return res.writeHead(302, { location: `${B}/open.css` }).end();
    if (p === '/with-redirecting-assets') {
      return res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>hops</title><link rel="stylesheet" href="${A}/style-hop"><script src="${A}/script-hop"></script><p>hops</p>`);
    }
    if (p === '/with-assets') {
      return res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>assets</title><link rel="stylesheet" href="${B}/style.css"><script src="${B}/app.js"></script><iframe src="${B}/frame"></iframe><p>assets</p>`);
    }
    html(res, `tenant ${p}`);
  });
  A = `http://127.0.0.1:${a.port}`;
});
afterAll(async () => {
  await new Promise((r) => a?.server.close(r));
  await new Promise((r) => b?.server.close(r));
});

/** A gate that records which host each request waited for, and with which crawl-delay. */
function recordingGate() {
  const acquired: { host: string; delay: number | undefined }[] = [];
  return {
    acquired,
    gate: {
      async acquire(host: string, delay?: number) {
        acquired.push({ host, delay });
        return async () => undefined;
      },
    },
  };
}

function engineFor(policy: TargetPolicy = { mode: 'open', domains: [] }) {
  const guard = new EgressGuard({ allow: [`127.0.0.1:${a.port}`, `localhost:${b.port}`], userAgent: TEST_UA });
  const robots = new RobotsPolicy({
    userAgent: TEST_UA,
    fetch: async (url) => {
      const res = await guard.fetch(url, { timeoutMs: 10_000 });
      return { status: res.status, body: res.body.toString('utf8') };
    },
  });
  const logs: RawLogEntry[] = [];
  const { gate, acquired } = recordingGate();
  const launcher = new LocalChromiumLauncher();
  const engine: Engine = createEngine({
    guard,
    robots,
    gate,
    browser: (signal) => BrowserSession.start({ launcher, guard, userAgent: TEST_UA, signal }),
    policy,
    challengePolicy: 'skip_page',
    userAgent: TEST_UA,
    log: (e) => logs.push(e),
  });
  return { engine, logs, acquired, close: async () => (await engine.close(), await guard.close()) };
}

const victimHits = (path: string) => b.paths.filter((p) => p === path).length;

describe.each<EngineUsed>(['http', 'browser'])('redirect hops in the %s engine', (engine) => {
  it('a redirect to a path the target host’s robots.txt disallows is a robots skip, and the path is never requested', async () => {
    const e = engineFor();
    try {
      for (const start of [`${A}/to-private`, `${A}/chain`]) {
        const before = victimHits('/private/page');
        const r = await e.engine.scrapePage(start, { engine });
        expect(r).toMatchObject({ url: start, final_url: `${B}/private/page`, status_code: 0, skipped: 'robots' });
        expect(victimHits('/private/page')).toBe(before);
      }
      expect(e.engine.stats().robots_skipped).toBe(2);
      expect(e.logs.filter((l) => l.decision === 'robots_skipped')).toEqual([
        expect.objectContaining({ url: `${B}/private/page`, reason: expect.stringContaining(`redirect from ${A}/to-private`) }),
        expect.objectContaining({ url: `${B}/private/page`, reason: expect.stringContaining('disallowed by robots.txt') }),
      ]);
    } finally {
      await e.close();
    }
  }, 60_000);

  it('a redirect to another host waits at that host’s gate, with that host’s crawl-delay', async () => {
    const e = engineFor();
    try {
      const r = await e.engine.scrapePage(`${A}/to-open`, { engine });
      expect(r).toMatchObject({ final_url: `${B}/open`, status_code: 200, title: `victim /open` });
      expect(e.acquired).toEqual(expect.arrayContaining([{ host: `127.0.0.1:${a.port}`, delay: undefined }, { host: `localhost:${b.port}`, delay: 2 }]));
    } finally {
      await e.close();
    }
  }, 60_000);

  it('a redirect that leaves an allowlist is refused before the hop is requested', async () => {
    const e = engineFor({ mode: 'allowlist', domains: ['127.0.0.1'] });
    try {
      const before = victimHits('/open');
      await expect(e.engine.scrapePage(`${A}/to-open`, { engine })).rejects.toMatchObject({ code: 'target_not_authorized' });
      expect(victimHits('/open')).toBe(before);
      expect(e.logs.some((l) => l.url === `${B}/open` && l.decision === 'forbidden')).toBe(true);
    } finally {
      await e.close();
    }
  }, 60_000);
});

describe('redirect hops of a resource fetch (sitemaps)', () => {
  it('pass robots.txt of the host they reach: a redirect to a disallowed path is a robots skip and never requested', async () => {
    const e = engineFor();
    try {
      const before = victimHits('/private/page');
      const read = async () => ({ value: 'read', bytes: 0 });
      await expect(e.engine.fetchResource(`${A}/to-private`, {}, read)).resolves.toEqual({ skipped: 'robots' });
      expect(victimHits('/private/page')).toBe(before);
      expect(e.logs).toContainEqual(expect.objectContaining({ url: `${B}/private/page`, decision: 'robots_skipped' }));
      // An allowed hop to the other host is read, after waiting at that host's gate with its crawl-delay.
      const ok = await e.engine.fetchResource(`${A}/to-open`, {}, read);
      expect(ok).toMatchObject({ status: 200, finalUrl: `${B}/open`, value: 'read' });
      expect(e.acquired).toContainEqual({ host: `localhost:${b.port}`, delay: 2 });
    } finally {
      await e.close();
    }
  });
});

describe('redirect limits in the http engine', () => {
  it('stops after 10 hops', async () => {
    const e = engineFor();
    try {
      await expect(e.engine.scrapePage(`${A}/loop`, { engine: 'http' })).rejects.toMatchObject({ code: 'too_many_redirects' });
      expect(e.acquired.filter((x) => x.host === `127.0.0.1:${a.port}`)).toHaveLength(11);
    } finally {
      await e.close();
    }
  });
});

describe('subresources in the browser engine', () => {
  it('stay inside the target policy: scripts, styles and frames of a host outside the allowlist are refused', async () => {
    const e = engineFor({ mode: 'allowlist', domains: ['127.0.0.1'] });
    try {
      const before = b.paths.length;
      const blocked = e.engine.stats().blocked_requests;
      const r = await e.engine.scrapePage(`${A}/with-assets`, { engine: 'browser' });
      expect(r).toMatchObject({ status_code: 200, title: 'assets' });
      expect(b.paths.slice(before)).toEqual([]);
      expect(e.engine.stats().blocked_requests).toBeGreaterThanOrEqual(blocked + 2);
    } finally {
      await e.close();
    }
  }, 60_000);
});

describe('redirect hops of subresources in the browser engine', () => {
  it('pass robots.txt and the gate of the host they reach: a script redirected to a disallowed path is never requested', async () => {
    const e = engineFor();
    try {
      const r = await e.engine.scrapePage(`${A}/with-redirecting-assets`, { engine: 'browser' });
      expect(r).toMatchObject({ status_code: 200, title: 'hops' });
      expect(victimHits('/private/app.js')).toBe(0);
      expect(e.logs).toContainEqual(expect.objectContaining({ url: `${B}/private/app.js`, decision: 'robots_skipped', reason: expect.stringContaining('subresource redirect from') }));
      // An allowed hop to the other host loads, after waiting at that host's gate with its crawl-delay.
      expect(victimHits('/open.css')).toBe(1);
      expect(e.acquired).toContainEqual({ host: `localhost:${b.port}`, delay: 2 });
      // A refused asset does not make the page a skip.
      expect(e.engine.stats().robots_skipped).toBe(0);
    } finally {
      await e.close();
    }
  }, 60_000);
});

describe('frames in the browser engine', () => {
  it('a frame robots.txt disallows is not loaded, and the page itself is still read', async () => {
    const e = engineFor();
    try {
      const r = await e.engine.scrapePage(`${A}/with-private-frame`, { engine: 'browser' });
      expect(r).toMatchObject({ status_code: 200, title: 'framed' });
      expect(victimHits('/private/frame')).toBe(0);
      expect(e.logs).toContainEqual(expect.objectContaining({ url: `${B}/private/frame`, decision: 'robots_skipped', reason: expect.stringContaining('frame from') }));
      expect(e.engine.stats().robots_skipped).toBe(0);
    } finally {
      await e.close();
    }
  }, 60_000);
});
