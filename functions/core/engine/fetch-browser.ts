import type { Browser, CDPSession, HTTPResponse, Page } from 'puppeteer-core';
import { AppError, targetForbidden } from '../errors.js';
import type { EgressGuard } from '../governance/egress-guard.js';
import { startEgressProxy, type EgressProxy } from '../governance/egress-proxy.js';
import type { BrowserLauncher } from '../../ports/browser.js';
import { BrowserTab, DEFAULT_SETTLE, type SettleRule } from './browser-tab.js';
import type { FetchedPage, FetchOptions } from './types.js';

/** Options of {@link BrowserSession.start}. */
export interface BrowserSessionOptions {
  launcher: BrowserLauncher;
  /** Every browser connection goes through an egress proxy built on this guard. */
  guard: EgressGuard;
  userAgent: string;
  /** Default navigation timeout in ms (default 30 s). */
  timeoutMs?: number;
  /** Rendering settings applied to every tab (a tenant's browser profile). */
  profile?: RenderProfile;
  /** Readiness rule of {@link BrowserSession.fetch} (default {@link DEFAULT_SETTLE}). */
  settle?: SettleRule;
}

/** Idle tabs kept for reuse (more than the usual concurrency; beyond it tabs are closed). */
const MAX_IDLE_TABS = 8;
/** A tab is retired after this many fetches, so whatever a page leaks is bounded. */
const TAB_MAX_USES = 50;
/**
 * Every this many fetches the browser is told memory is critically short: it drops its caches
 * and collects garbage. Without it a long run's Chromium grows about 1 MB per page (the
 * single-process headless shell keeps what closed documents used); with it RSS stays flat.
 */
const PURGE_EVERY = 50;

/** How tabs render: never identity (the User-Agent stays Gleaner's). */
export interface RenderProfile {
  viewport: { width: number; height: number };
  device_scale_factor: number;
  is_mobile: boolean;
  locale: string;
  timezone: string;
  color_scheme: 'light' | 'dark';
}

/**
 * Runs before any page script in every document of every tab (iframes included, the initial
 * `about:blank` of a scripted iframe too): removes the APIs that send UDP, which an HTTP egress
 * proxy cannot carry or vet (WebRTC ICE/STUN/TURN, WebTransport over QUIC), and `window.open`, whose
 * popups would be tabs the session does not track. The launchers' flags and profile already keep
 * Chromium from gathering any UDP candidate; this keeps a page from even trying on a binary that
 * ignored them.
 */
export const NO_UDP_APIS_SCRIPT = `(() => {
  const names = ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCIceCandidate', 'RTCIceTransport',
    'RTCDtlsTransport', 'RTCSctpTransport', 'RTCRtpSender', 'RTCRtpReceiver', 'RTCRtpTransceiver', 'RTCSessionDescription',
    'RTCCertificate', 'WebTransport', 'WebTransportError', 'WebTransportBidirectionalStream', 'WebTransportDatagramDuplexStream'];
  for (const n of names) {
    try { delete globalThis[n]; } catch (e) {}
    try { Object.defineProperty(globalThis, n, { value: undefined, writable: false, configurable: false }); } catch (e) {}
  }
  try { Object.defineProperty(globalThis, 'open', { value: () => null, writable: false, configurable: false }); } catch (e) {}
})();`;

/** Chromium's own error page: the navigation failed (blocked tunnel, refused connection, ...). */
const isErrorPage = (url: string) => url.startsWith('chrome-error://');

/**
 * One headless Chromium per run, reused across pages: {@link fetch} keeps a few tabs and reuses
 * them (a new tab costs a renderer set-up per page). The browser is started with `--proxy-server`
 * pointing at a per-session egress proxy, so every navigation, redirect, subresource and
 * WebSocket is vetted by the same guard as the http engine; the images, fonts and media that
 * {@link fetch} does not load are screened by that guard too. {@link close} stops both; it is
 * idempotent.
 */
export class BrowserSession {
  private closed = false;
  private readonly pages = new Set<Page>();
  private readonly idle: BrowserTab[] = [];
  private fetches = 0;
  private browserCdp: Promise<CDPSession> | undefined;

  private constructor(
    readonly browser: Browser,
    private readonly proxy: EgressProxy,
    private readonly timeoutMs: number,
    private readonly profile?: RenderProfile,
    private readonly settleRule: SettleRule = DEFAULT_SETTLE,
  ) {}

  /** Start the egress proxy, then the browser behind it. The proxy is closed if the launch fails. */
  static async start(opts: BrowserSessionOptions): Promise<BrowserSession> {
    const proxy = await startEgressProxy(opts.guard);
    try {
      const browser = await opts.launcher.launch({ proxyUrl: proxy.url, userAgent: opts.userAgent });
      return new BrowserSession(browser, proxy, opts.timeoutMs ?? 30_000, opts.profile, opts.settle);
    } catch (err) {
      await proxy.close();
      throw err;
    }
  }

  /** Requests (navigations, subresources, WebSockets) the egress proxy refused so far. */
  blockedRequests(): number {
    return this.proxy.blocked();
  }

  /** What the proxy refused: absolute URLs for http, `host:port` for tunnels. */
  blockedUrls(): string[] {
    return this.proxy.blockedUrls();
  }

  /** A fresh tab with the session's timeouts. The caller closes it (or {@link close} does). */
  async newPage(): Promise<Page> {
    if (this.closed) throw new AppError(503, 'browser_unavailable', 'The browser session is closed');
    const page = await this.browser.newPage();
    this.pages.add(page);
    page.once('close', () => this.pages.delete(page));
    await page.evaluateOnNewDocument(NO_UDP_APIS_SCRIPT);
    page.setDefaultNavigationTimeout(this.timeoutMs);
    page.setDefaultTimeout(this.timeoutMs);
    const p = this.profile;
    if (p) {
      await page.setViewport({ ...p.viewport, deviceScaleFactor: p.device_scale_factor, isMobile: p.is_mobile, hasTouch: p.is_mobile });
      await page.emulateTimezone(p.timezone);
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: p.color_scheme }]);
      await page.setExtraHTTPHeaders({ 'accept-language': `${p.locale},${p.locale.split('-')[0]};q=0.9` });
    }
    return page;
  }

  /**
   * Navigate a page and throw `target_forbidden` when the main document (or a hop of its redirect
   * chain, or a script navigation) went to a destination the proxy refused.
   */
  async navigate(
    page: Page,
    url: string,
    opts: { timeoutMs?: number; waitFor?: string; waitUntil?: 'load' | 'networkidle2'; settle?: BrowserTab } = {},
  ): Promise<HTTPResponse | null> {
    const timeout = opts.timeoutMs ?? this.timeoutMs;
    const deadline = Date.now() + timeout;
    const blockedBefore = this.proxy.blocked();
    let response: HTTPResponse | null;
    try {
      response = await page.goto(url, { waitUntil: opts.waitUntil ?? 'networkidle2', timeout });
      await opts.settle?.settle(this.settleRule, deadline);
    } catch (err) {
      this.assertMainFrameAllowed(page, url, blockedBefore, null);
      throw err;
    }
    this.assertMainFrameAllowed(page, url, blockedBefore, response);
    if (opts.waitFor) {
      await page.waitForSelector(opts.waitFor, { timeout: Math.max(1_000, deadline - Date.now()) });
    }
    this.assertMainFrameAllowed(page, url, blockedBefore, response);
    return response;
  }

  /**
   * The browser engine's fetch stage on a reused tab: navigate until `load`, then settle (DOM and
   * content requests quiet, see {@link BrowserTab.settle}), optional `wait_for`, final URL,
   * status, rendered HTML, optional screenshot. Images, fonts and media load only for a
   * screenshot. A tab that failed is closed rather than reused.
   */
  async fetch(url: string, opts: FetchOptions = {}): Promise<FetchedPage> {
    const started = performance.now();
    const tab = await this.takeTab();
    let reusable = false;
    try {
      const page = tab.page;
      await tab.blockAssets(!opts.screenshot);
      tab.reset();
      const response = await this.navigate(page, url, { ...opts, waitUntil: 'load', settle: tab });
      const html = await page.content();
      const headers = new Headers();
      for (const [k, v] of Object.entries(response?.headers() ?? {})) {
        for (const line of v.split('\n')) headers.append(k, line);
      }
      const screenshot = opts.screenshot
        ? ((await page.screenshot({ type: 'png', encoding: 'base64' })) as string)
        : undefined;
      const result: FetchedPage = {
        url,
        finalUrl: page.url(),
        status: response?.status() ?? 0,
        headers,
        html,
        bytes: await documentBytes(response, html),
        timingMs: Math.round(performance.now() - started),
        engine: 'browser',
        ...(screenshot ? { screenshot } : {}),
      };
      reusable = true;
      return result;
    } finally {
      this.releaseTab(tab, reusable);
    }
  }

  private async takeTab(): Promise<BrowserTab> {
    const reused = this.idle.pop();
    if (reused) return reused;
    const page = await this.newPage();
    try {
      return await BrowserTab.attach(page, (u) => this.proxy.screen(u));
    } catch (err) {
      await page.close().catch(() => {});
      throw err;
    }
  }

  /** See {@link PURGE_EVERY}. Best effort: a browser that refuses is no reason to fail a page. */
  private purgeNow(): void {
    this.browserCdp ??= this.browser.target().createCDPSession();
    void this.browserCdp
      .then((cdp) => cdp.send('Memory.simulatePressureNotification', { level: 'critical' }))
      .catch(() => {});
  }

  private releaseTab(tab: BrowserTab, reusable: boolean): void {
    tab.uses++;
    if (++this.fetches % PURGE_EVERY === 0 && !this.closed) this.purgeNow();
    if (reusable && !this.closed && !tab.page.isClosed() && tab.uses < TAB_MAX_USES && this.idle.length < MAX_IDLE_TABS) {
      this.idle.push(tab);
      return;
    }
    void tab.close();
  }

  /** Close every tab, the browser and the proxy. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.idle.length = 0;
    await Promise.allSettled([...this.pages].map((p) => p.close()));
    await this.browser.close().catch(() => {});
    await this.proxy.close();
  }

  private assertMainFrameAllowed(page: Page, url: string, blockedBefore: number, response: HTTPResponse | null): void {
    const fresh = this.proxy.blockedUrls().slice(blockedBefore);
    if (fresh.length === 0) return;
    const chain = [
      ...(response?.request().redirectChain().map((r) => r.url()) ?? []),
      response?.url(),
      page.url(),
      url,
    ].filter((u): u is string => Boolean(u) && !isErrorPage(u!));
    const hit = chain.find((u) => fresh.some((b) => sameTarget(b, u)));
    if (hit) throw targetForbidden(`Navigation to ${hit} was blocked by the egress guard`);
    if (isErrorPage(page.url())) {
      throw targetForbidden(`Navigation from ${url} was blocked by the egress guard (${fresh[0]})`);
    }
  }
}

/**
 * Bytes of the main document as received: its Content-Length when the server sent one (no body
 * round trip to the browser), else the body the browser kept, else the rendered size.
 */
async function documentBytes(response: HTTPResponse | null, html: string): Promise<number> {
  const length = Number(response?.headers()['content-length']);
  if (Number.isInteger(length) && length >= 0 && !response?.headers()['content-encoding']) return length;
  try {
    return (await response?.buffer())?.length ?? Buffer.byteLength(html);
  } catch {
    return Buffer.byteLength(html); // body gone after client-side navigation
  }
}

/** Does a proxy refusal (`http://h:p/path` or `h:p`) concern this URL? */
function sameTarget(blocked: string, url: string): boolean {
  if (blocked === url) return true;
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    if (/^[^/]+:\d+$/.test(blocked)) return blocked.toLowerCase() === `${u.hostname}:${port}`.toLowerCase() && u.protocol === 'https:';
    const b = new URL(blocked);
    return b.host === u.host && b.pathname === u.pathname && b.search === u.search;
  } catch {
    return false;
  }
}
