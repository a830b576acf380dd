import { AppError, targetForbidden } from '../errors.js';
import type { EgressGuard } from '../governance/egress-guard.js';
import { startEgressProxy, type EgressProxy } from '../governance/egress-proxy.js';
import type { Browser, BrowserLauncher, FetchTab, RenderProfile, SettleRule, Tab, TabResponse, WaitUntil } from '../../ports/browser.js';
import type { FetchedPage, FetchOptions } from './types.js';
import { CAPTURE_SCRIPT, HIDE_OVERLAYS_SCRIPT, OVERLAY_SCRIPT, SHOW_OVERLAYS_SCRIPT, VIEW_SCRIPT, stitchFrames } from './page-capture.js';
import type { TargetPolicy } from '../governance/target-policy.js';

export type { RenderProfile, SettleRule } from '../../ports/browser.js';

/**
 * Readiness of {@link BrowserSession.fetch}: `load`, then 150 ms without a DOM change or a content
 * request in flight, at most 3 s after `load` (see {@link FetchTab.settle}). 15 ms are enough when
 * no timer, animation frame or idle callback the page scheduled is due within the 150 ms and the
 * page waits on nothing it started (a fetch or its body, an XHR; a script it adds is a request in
 * flight) and handed no work on to itself (a posted message) meanwhile: what the longer window
 * waited for on such a page was only time. (The short window was 50 ms until that in-page work was tracked; issue 37: the
 * peers bench's browser arm 1.41-1.44x -> 1.63-1.81x PuppeteerCrawler pages/s.)
 */
export const DEFAULT_SETTLE: SettleRule = { quietMs: 150, idleMs: 15, capMs: 3_000 };

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
  /** Aborting it gives up a launch in progress: the Chromium still starting is killed. */
  signal?: AbortSignal;
}

/** How long a session's close waits for its tabs before closing (killing) the browser. */
const TAB_CLOSE_WAIT_MS = 2_000;

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

/** Chromium's own error page: the navigation failed (blocked tunnel, refused connection, ...). */
const isErrorPage = (url: string) => url.startsWith('chrome-error://');

/**
 * Governs a document request of one of the session's tabs (see {@link BrowserSession.admitDocuments}).
 * `pageUrl` is what the tab was last asked to navigate to (null before any navigation).
 */
export type DocumentAdmission = (url: string, ctx: { pageUrl: string | null; mainFrame: boolean; subresource?: boolean }) => Promise<void>;

/** A fetch tab of the pool and how many fetches it served (retired at {@link TAB_MAX_USES}). */
interface PooledTab {
  tab: FetchTab;
  uses: number;
}

/**
 * One headless Chromium per run (the Browser port), reused across pages: {@link fetch} keeps a
 * few tabs and reuses them (a new tab costs a renderer set-up per page). The browser is started
 * with `--proxy-server` pointing at a per-session egress proxy, so every navigation, redirect,
 * subresource and WebSocket is vetted by the same guard as the http engine; the images, fonts and
 * media that {@link fetch} does not load are screened by that guard too. {@link close} stops
 * both; it is idempotent.
 */
export class BrowserSession {
  private closed = false;
  private readonly tabs = new Set<Tab>();
  private readonly idle: PooledTab[] = [];
  private fetches = 0;
  private admission: DocumentAdmission | undefined;
  /** Per tab: the URL it was last sent to, and why a document request of it was refused since. */
  private readonly navigations = new WeakMap<Tab, { pageUrl: string | null; refusal: unknown }>();

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
      const browser = await opts.launcher.launch({ proxyUrl: proxy.url, userAgent: opts.userAgent, signal: opts.signal });
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

  /**
   * Govern every document request of the session's tabs from now on (navigations, each redirect
   * hop Chromium follows, frames, script navigations): each waits for `admit`, and a refusal
   * fails it as blocked; {@link navigate} then throws that refusal. Set once, before any tab.
   */
  admitDocuments(admit: DocumentAdmission): void {
    this.admission = admit;
  }

  /**
   * Refuse every browser request (subresources, WebSockets and tunnels included) to a host
   * `check` throws for: the engine passes the tenant's target policy. Refusals are counted
   * with the proxy's ({@link blockedRequests}).
   */
  restrictHosts(check: (hostname: string) => void): void {
    this.proxy.restrictHosts(check);
  }

  /** The per-tab hook handed to the browser port: runs the session's admission, remembers a refusal. */
  private admitFor(ref: { tab?: Tab }): ((url: string, info: { mainFrame: boolean; subresource?: boolean }) => Promise<void>) | undefined {
    const admit = this.admission;
    if (!admit) return undefined;
    return async (url, { mainFrame, subresource }) => {
      const state = ref.tab ? this.navigations.get(ref.tab) : undefined;
      try {
        await admit(url, { pageUrl: state?.pageUrl ?? null, mainFrame, subresource });
      } catch (err) {
        // Only the main frame's refusal is the page's fate; a refused frame just stays empty.
        if (state && mainFrame) state.refusal = err;
        throw err;
      }
    };
  }

  /**
   * The last refusal of a main-frame document request of `tab` (robots.txt, target policy) since
   * its last {@link navigate}; a page action compares it before and after (page-actions.ts).
   */
  refusalOf(tab: Tab): unknown {
    return this.navigations.get(tab)?.refusal ?? null;
  }

  /** A fresh tab with the session's timeouts and profile. The caller closes it (or {@link close} does). */
  newTab(): Promise<Tab> {
    const ref: { tab?: Tab } = {};
    return this.track(async () => (ref.tab = await this.browser.newTab({ timeoutMs: this.timeoutMs, profile: this.profile, admitDocument: this.admitFor(ref) })));
  }

  /** Open a tab that {@link close} closes too, unless it was closed before. */
  private async track<T extends Tab>(open: () => Promise<T>): Promise<T> {
    if (this.closed) throw new AppError(503, 'browser_unavailable', 'The browser session is closed');
    const tab = await open();
    this.tabs.add(tab);
    tab.onClose(() => this.tabs.delete(tab));
    return tab;
  }

  /**
   * Navigate a page and throw `target_forbidden` when the main document (or a hop of its redirect
   * chain, or a script navigation) went to a destination the proxy refused.
   */
  async navigate(
    tab: Tab,
    url: string,
    opts: { timeoutMs?: number; waitFor?: string; waitUntil?: WaitUntil; settle?: FetchTab } = {},
  ): Promise<TabResponse | null> {
    const timeout = opts.timeoutMs ?? this.timeoutMs;
    const deadline = Date.now() + timeout;
    const blockedBefore = this.proxy.blocked();
    const state = { pageUrl: url, refusal: null as unknown };
    this.navigations.set(tab, state);
    let response: TabResponse | null;
    try {
      response = await tab.goto(url, { waitUntil: opts.waitUntil ?? 'networkidle2', timeoutMs: timeout });
      // A download left the tab on its previous document: there is nothing to settle or wait for.
      if (response?.download) {
        this.assertMainFrameAllowed(tab, url, blockedBefore, response);
        return response;
      }
      await opts.settle?.settle(this.settleRule, deadline);
    } catch (err) {
      // A hop refused by the document admission (robots.txt, target policy): that is the reason.
      if (state.refusal) throw state.refusal;
      this.assertMainFrameAllowed(tab, url, blockedBefore, null);
      throw err;
    }
    if (state.refusal && isErrorPage(tab.url())) throw state.refusal;
    this.assertMainFrameAllowed(tab, url, blockedBefore, response);
    if (opts.waitFor) {
      await tab.waitForSelector(opts.waitFor, { timeoutMs: Math.max(1_000, deadline - Date.now()) });
    }
    this.assertMainFrameAllowed(tab, url, blockedBefore, response);
    return response;
  }

  /**
   * The browser engine's fetch stage on a reused tab: navigate until `load`, then settle (DOM and
   * content requests quiet, see {@link FetchTab.settle}), optional `wait_for`, final URL,
   * status, rendered HTML, optional screenshot. Images, fonts and media load only for a
   * screenshot, and the viewport's pixels are drawn only for a screenshot or actions (the page
   * runs the same either way; see FetchTab.drawPixels). A tab that failed is closed rather than
   * reused.
   */
  async fetch(url: string, opts: FetchOptions = {}): Promise<FetchedPage> {
    const started = performance.now();
    const pooled = await this.takeTab();
    const tab = pooled.tab;
    let reusable = false;
    try {
      await tab.blockAssets(!opts.screenshot && !opts.loadAssets);
      // Pixels only for what looks at them: a screenshot, or actions (clicks land on coordinates).
      await tab.drawPixels(Boolean(opts.screenshot || opts.loadAssets || opts.interact));
      tab.reset();
      const response = await this.navigate(tab, url, { ...opts, waitUntil: 'load', settle: tab });
      if (response?.download) {
        // Not rendered (see TabResponse.download): the pipeline reads the document over http.
        reusable = true;
        return downloadPage(url, response, Math.round(performance.now() - started));
      }
      if (opts.interact) {
        // Overlays first, so an action's click reaches the page rather than a wall over it.
        await this.hideOverlays(tab);
        await opts.interact(tab);
      }
      const html = await this.capture(tab, opts.policy);
      const headers = new Headers();
      for (const [k, v] of Object.entries(response?.headers ?? {})) {
        for (const line of v.split('\n')) headers.append(k, line);
      }
      const screenshot = opts.screenshot ? await tab.screenshot() : undefined;
      const result: FetchedPage = {
        url,
        finalUrl: tab.url(),
        status: response?.status ?? 0,
        headers,
        html,
        bytes: await documentBytes(response, html),
        timingMs: Math.round(performance.now() - started),
        engine: 'browser',
        ...(screenshot ? { screenshot } : {}),
      };
      reusable = leavesPlainPage(response);
      return result;
    } finally {
      this.releaseTab(pooled, reusable);
    }
  }

  /**
   * Remove consent banners, cookie walls and sign-up modals from the live page (document and
   * open shadow roots), never accepting them (page-capture.ts). Best effort: a page that
   * navigates meanwhile keeps them.
   */
  async hideOverlays(tab: Tab): Promise<number> {
    return Number(await tab.evaluate(OVERLAY_SCRIPT).catch(() => 0));
  }

  /**
   * The page as people see it, as HTML: overlays removed, open shadow roots inlined, same-site
   * frames (and frames on hosts `policy` allowlists) stitched in, other frames left out.
   */
  async capture(tab: Tab, policy: TargetPolicy = { mode: 'open', domains: [] }): Promise<string> {
    return stitchFrames(await tab.composedContent(CAPTURE_SCRIPT), tab.url(), policy);
  }

  /**
   * The page as people see it without changing it (a runbook's tab goes on being used): open
   * shadow roots inlined, frames stitched as {@link capture} does, overlays only marked
   * (`dropMarkedOverlays` leaves them out of the parsed page).
   */
  async view(tab: Tab, policy: TargetPolicy = { mode: 'open', domains: [] }): Promise<string> {
    return stitchFrames(await tab.composedContent(VIEW_SCRIPT), tab.url(), policy);
  }

  /** Hide the overlays for a screenshot (best effort); {@link showOverlays} puts them back. */
  async hideOverlaysFor(tab: Tab): Promise<void> {
    await tab.evaluate(HIDE_OVERLAYS_SCRIPT).catch(() => {});
  }

  async showOverlays(tab: Tab): Promise<void> {
    await tab.evaluate(SHOW_OVERLAYS_SCRIPT).catch(() => {});
  }

  private async takeTab(): Promise<PooledTab> {
    const reused = this.idle.pop();
    if (reused) return reused;
    const ref: { tab?: Tab } = {};
    const tab = await this.track(async () =>
      (ref.tab = await this.browser.newFetchTab({ timeoutMs: this.timeoutMs, profile: this.profile, screen: (u) => this.proxy.screen(u), admitDocument: this.admitFor(ref) })),
    );
    return { tab, uses: 0 };
  }

  private releaseTab(pooled: PooledTab, reusable: boolean): void {
    pooled.uses++;
    // See PURGE_EVERY. Best effort: a browser that refuses is no reason to fail a page.
    if (++this.fetches % PURGE_EVERY === 0 && !this.closed) void this.browser.purgeMemory();
    const tab = pooled.tab;
    if (reusable && !this.closed && !tab.isClosed() && pooled.uses < TAB_MAX_USES && this.idle.length < MAX_IDLE_TABS) {
      this.idle.push(pooled);
      return;
    }
    void tab.close();
  }

  /** Close every tab, the browser and the proxy. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.idle.length = 0;
    // Tabs are closed first (their close listeners run), but a Chromium that stopped answering
    // must not hold up the browser's own close, which kills it: bounded.
    const tabs = Promise.allSettled([...this.tabs].map((t) => t.close()));
    await Promise.race([tabs, new Promise((r) => setTimeout(r, TAB_CLOSE_WAIT_MS).unref())]);
    await this.browser.close().catch(() => {});
    await this.proxy.close();
  }

  private assertMainFrameAllowed(tab: Tab, url: string, blockedBefore: number, response: TabResponse | null): void {
    const fresh = this.proxy.blockedUrls().slice(blockedBefore);
    if (fresh.length === 0) return;
    const chain = [
      ...(response?.redirectChain ?? []),
      response?.url,
      tab.url(),
      url,
    ].filter((u): u is string => Boolean(u) && !isErrorPage(u!));
    const hit = chain.find((u) => fresh.some((b) => sameTarget(b, u)));
    if (hit) throw targetForbidden(`Navigation to ${hit} was blocked by the egress guard`);
    if (isErrorPage(tab.url())) {
      throw targetForbidden(`Navigation from ${url} was blocked by the egress guard (${fresh[0]})`);
    }
  }
}

/**
 * Bytes of the main document as received: its Content-Length when the server sent one (no body
 * round trip to the browser), else the body the browser kept, else the rendered size.
 */
async function documentBytes(response: TabResponse | null, html: string): Promise<number> {
  const length = Number(response?.headers['content-length']);
  if (Number.isInteger(length) && length >= 0 && !response?.headers['content-encoding']) return length;
  try {
    return (await response?.body())?.length ?? Buffer.byteLength(html);
  } catch {
    return Buffer.byteLength(html); // body gone after client-side navigation
  }
}

/** A response the browser gave up as a download, as a fetched page without body nor HTML. */
/**
 * Whether a tab may go back to the pool after showing this response. A document Chromium lays
 * out itself (HTML, XML, JSON, text) leaves an ordinary page; anything else (a PDF in the system
 * binary's viewer, an image or media document) leaves a viewer with frames of its own, and the
 * next navigation of that tab could wait for them until its timeout (seen in CI: a PDF, then an
 * attachment, then an HTML page on the same tab). Such a tab is closed; the next page gets a new one.
 */
function leavesPlainPage(response: TabResponse | null): boolean {
  const type = (response?.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return !type || type.startsWith('text/') || /^application\/([\w.-]+\+)?(xml|json)$/.test(type);
}

function downloadPage(url: string, response: TabResponse, timingMs: number): FetchedPage {
  const headers = new Headers();
  for (const [k, v] of Object.entries(response.headers)) for (const line of v.split('\n')) headers.append(k, line);
  const length = Number(response.headers['content-length']);
  return {
    url,
    finalUrl: response.url,
    status: response.status,
    headers,
    html: '',
    bytes: Number.isInteger(length) && length >= 0 ? length : 0,
    timingMs,
    engine: 'browser',
    downloaded: true,
  };
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
