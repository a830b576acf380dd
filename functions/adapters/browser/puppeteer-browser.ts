import type { Browser as PuppeteerDriverBrowser, CDPSession, Page } from 'puppeteer-core';
import type { Browser, FetchTab, FetchTabOptions, Tab, TabOptions } from '../../ports/browser.js';
import { PuppeteerFetchTab } from './puppeteer-fetch-tab.js';
import { PuppeteerTab } from './puppeteer-tab.js';

/**
 * Runs before any page script in every document of every tab (iframes included, the initial
 * `about:blank` of a scripted iframe too): removes the APIs that send UDP, which an HTTP egress
 * proxy cannot carry or vet (WebRTC ICE/STUN/TURN, WebTransport over QUIC), and `window.open`, whose
 * popups would be tabs the session does not track. The launchers' flags and profile
 * (chromium-profile.ts) already keep Chromium from gathering any UDP candidate; this keeps a page
 * from even trying on a binary that ignored them.
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

/**
 * The port's {@link Browser} on a puppeteer browser started by `launchWithProfile`
 * (chromium-profile.ts), whose `close()` also waits for the process and removes the profile.
 * Every tab gets {@link NO_UDP_APIS_SCRIPT}, the default timeouts and the render profile before
 * the caller sees it.
 */
export class PuppeteerBrowser implements Browser {
  private browserCdp: Promise<CDPSession> | undefined;
  private popupGuard: Promise<void> | undefined;
  private popupsClosed = 0;

  constructor(private readonly browser: PuppeteerDriverBrowser) {}

  get pid(): number | undefined {
    return this.browser.process()?.pid;
  }

  /** Popups (new windows a page opened) closed before they loaded anything (see {@link blockPopups}). */
  get popupsBlocked(): number {
    return this.popupsClosed;
  }

  /**
   * Close every popup before it sends a request (issue 37 finding 8). A page opens a new window
   * not only through `window.open` (removed by {@link NO_UDP_APIS_SCRIPT}) but through a link or
   * form with `target=_blank` (or a `<base target>`), and such a window is a tab the session
   * never governed: no document admission (robots.txt, politeness), no tracking. The browser's
   * own CDP session auto-attaches to every new page with `waitForDebuggerOnStart`, which holds
   * its first navigation until every attached client lets it run: a page with an opener is
   * closed instead, so its request never leaves; any other page (the tabs we open) is let run
   * and left alone. Clicks that would open one simply do not navigate.
   */
  private blockPopups(): Promise<void> {
    return (this.popupGuard ??= (async () => {
      const cdp = await this.browserSession();
      cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { targetId: string; type: string; openerId?: string } }) => {
        const release = () => cdp.send('Target.detachFromTarget', { sessionId: e.sessionId }).catch(() => {});
        if (e.targetInfo.type === 'page' && e.targetInfo.openerId) {
          this.popupsClosed++;
          void cdp.send('Target.closeTarget', { targetId: e.targetInfo.targetId }).catch(release);
          return;
        }
        void cdp
          .connection()
          ?.session(e.sessionId)
          ?.send('Runtime.runIfWaitingForDebugger')
          .catch(() => {})
          .then(release);
      });
      await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: [{ type: 'page', exclude: false }] });
    })());
  }

  private browserSession(): Promise<CDPSession> {
    return (this.browserCdp ??= this.browser.target().createCDPSession());
  }

  async newTab(opts: TabOptions): Promise<Tab> {
    const page = await this.openPage(opts);
    if (!opts.admitDocument) return new PuppeteerTab(page);
    try {
      return await PuppeteerTab.withAdmission(page, opts.admitDocument);
    } catch (err) {
      await page.close().catch(() => {});
      throw err;
    }
  }

  async newFetchTab(opts: FetchTabOptions): Promise<FetchTab> {
    const page = await this.openPage(opts);
    try {
      return await PuppeteerFetchTab.attach(page, opts.screen, opts.admitDocument);
    } catch (err) {
      await page.close().catch(() => {});
      throw err;
    }
  }

  async tabCount(): Promise<number> {
    return (await this.browser.pages()).length;
  }

  purgeMemory(): Promise<void> {
    return this.browserSession()
      .then((cdp) => cdp.send('Memory.simulatePressureNotification', { level: 'critical' }))
      .then(
        () => {},
        () => {},
      );
  }

  async close(): Promise<void> {
    await this.browser.close();
  }

  /** A new page, hardened and set up before any navigation; closed again if the set-up fails. */
  private async openPage(opts: TabOptions): Promise<Page> {
    await this.blockPopups();
    const page = await this.browser.newPage();
    try {
      await page.evaluateOnNewDocument(NO_UDP_APIS_SCRIPT);
      page.setDefaultNavigationTimeout(opts.timeoutMs);
      page.setDefaultTimeout(opts.timeoutMs);
      const p = opts.profile;
      if (p) {
        await page.setViewport({ ...p.viewport, deviceScaleFactor: p.device_scale_factor, isMobile: p.is_mobile, hasTouch: p.is_mobile });
        await page.emulateTimezone(p.timezone);
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: p.color_scheme }]);
        await page.setExtraHTTPHeaders({ 'accept-language': `${p.locale},${p.locale.split('-')[0]};q=0.9` });
      }
      return page;
    } catch (err) {
      await page.close().catch(() => {});
      throw err;
    }
  }
}
