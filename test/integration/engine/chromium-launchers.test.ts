import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { LocalChromiumLauncher, SYSTEM_CHROMIUM_PATHS, sparticuzExecutable } from '../../../functions/adapters/local/chromium-launcher.js';
import { LambdaChromiumLauncher } from '../../../functions/adapters/aws/chromium-launcher.js';
import { AppError } from '../../../functions/core/errors.js';
import type { BrowserLauncher } from '../../../functions/ports/browser.js';
import { BrowserSession } from '../../../functions/core/engine/fetch-browser.js';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { startCanary, startFixtureSite, type Canary, type FixtureSite } from '../../fixtures/site/server.js';
import { governance, TEST_UA } from './harness.js';
import { alive, fakeChromiums } from '../../support/fake-chromium.js';

let site: FixtureSite;
let canary: Canary;

// The @sparticuz/chromium binary ships brotli-packed inside node_modules; unpacking needs ~200 MB
// of temp space. If that fails here, the smoke test is skipped with the reason printed.
let sparticuzProblem: string | null = null;

beforeAll(async () => {
  canary = await startCanary();
  site = await startFixtureSite({ canaryUrl: canary.url });
  try {
    await sparticuzExecutable();
  } catch (err) {
    sparticuzProblem = (err as Error).message;
    console.warn(`[skip] @sparticuz/chromium could not be unpacked: ${sparticuzProblem}`);
  }
}, 120_000);

afterAll(async () => {
  await site?.close();
  await canary?.close();
});

/** Render the JS page and the canary image page through a session on `launcher`. */
async function smoke(launcher: BrowserLauncher) {
  const { guard } = governance(site.port);
  const session = await BrowserSession.start({ launcher, guard, userAgent: TEST_UA });
  try {
    const js = await session.fetch(`${site.baseUrl}/js-app`, { waitFor: '#loaded', screenshot: true });
    const ua = await session.fetch(`${site.baseUrl}/echo-ua`);
    const img = await session.fetch(`${site.baseUrl}/img-canary`);
    return { js, ua, img, blocked: session.blockedRequests() };
  } finally {
    await session.close();
    await guard.close();
  }
}

describe('chromium launchers', () => {
  it('the default launcher renders a page behind the egress proxy (system Chromium when installed, else the fallback)', async (ctx) => {
    // What this machine has decides which launcher kind is expected; with neither, nothing can run.
    const system = SYSTEM_CHROMIUM_PATHS.some((p) => existsSync(p)) || !!process.env.GLEANER_CHROMIUM_PATH;
    if (!system && sparticuzProblem) ctx.skip();
    const launcher = new LocalChromiumLauncher();
    const r = await smoke(launcher);
    expect(launcher.lastLaunch?.kind).toBe(system ? 'system' : 'sparticuz');
    expect(parsePage(r.js.html, r.js.finalUrl).text).toContain('Rendered by JavaScript');
    expect(r.ua.html).toContain(TEST_UA);
    expect(r.blocked).toBeGreaterThan(0);
    expect(canary.connections()).toBe(0);
  });

  it('falls back to @sparticuz/chromium (the Lambda binary) and renders a page', async (ctx) => {
    if (sparticuzProblem) ctx.skip();
    const launcher = new LocalChromiumLauncher({ executablePath: '/nonexistent/chromium', candidates: [] });
    const r = await smoke(launcher);
    expect(launcher.lastLaunch?.kind).toBe('sparticuz');
    // Off Lambda the package skips its Amazon Linux libraries; the launcher unpacks them itself.
    expect((await sparticuzExecutable()).env.LD_LIBRARY_PATH).toMatch(/al2023\/lib/);
    expect(r.js.status).toBe(200);
    expect(parsePage(r.js.html, r.js.finalUrl).text).toContain('Rendered by JavaScript');
    expect(r.js.html).toContain('Late content');
    expect(Buffer.from(r.js.screenshot!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(r.ua.html).toContain(TEST_UA);
    expect(r.blocked).toBeGreaterThan(0);
    expect(canary.connections()).toBe(0);
  });

  it('the Lambda launcher (@sparticuz args, headless shell) renders a page', async (ctx) => {
    if (sparticuzProblem) ctx.skip();
    const r = await smoke(new LambdaChromiumLauncher());
    expect(parsePage(r.js.html, r.js.finalUrl).text).toContain('Rendered by JavaScript');
    expect(r.blocked).toBeGreaterThan(0);
    expect(canary.connections()).toBe(0);
  });

  it('says how to install Chromium when none starts', async () => {
    const launcher = new LocalChromiumLauncher({ executablePath: '/nonexistent/chromium', candidates: [], sparticuzFallback: false });
    const err = await launcher.launch({ proxyUrl: 'http://127.0.0.1:9' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 503, code: 'browser_unavailable' });
    expect((err as AppError).message).toMatch(/apt-get install -y chromium.*GLEANER_CHROMIUM_PATH/s);
  });

  it('a launch aborted while Chromium is still starting ends at once: process killed, profile removed, no other candidate tried', async () => {
    // Prepare: two "browsers" that start and never answer (a Chromium wedged on a loaded machine).
    const fakes = fakeChromiums();
    try {
      const first = fakes.hanging('first');
      const second = fakes.hanging('second');
      const launcher = new LocalChromiumLauncher({ executablePath: first.path, candidates: [second.path], sparticuzFallback: false, launchTimeoutMs: 600_000 });
      const stop = new AbortController();
      // Act
      const launching = launcher.launch({ proxyUrl: 'http://127.0.0.1:9', signal: stop.signal }).catch((e: unknown) => e);
      const started = await first.started();
      stop.abort();
      const err = await launching;
      // Assess: the launch gave up (not after its 10-minute timeout: the test would time out first).
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 503, code: 'browser_unavailable' });
      expect((err as AppError).message).toMatch(/stopped while Chromium was starting/);
      expect(alive(started.pid)).toBe(false);
      expect(existsSync(started.profileDir)).toBe(false);
      expect(second.wasStarted()).toBe(false);
    } finally {
      fakes.remove();
    }
  });

  it('a launch with an aborted signal starts nothing', async () => {
    const fakes = fakeChromiums();
    try {
      const fake = fakes.hanging('only');
      const launcher = new LocalChromiumLauncher({ executablePath: fake.path, candidates: [], sparticuzFallback: false });
      const err = await launcher.launch({ proxyUrl: 'http://127.0.0.1:9', signal: AbortSignal.abort() }).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 503, code: 'browser_unavailable' });
      expect(fake.wasStarted()).toBe(false);
    } finally {
      fakes.remove();
    }
  });
});
