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

  constructor(private readonly browser: PuppeteerDriverBrowser) {}

  get pid(): number | undefined {
    return this.browser.process()?.pid;
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
    this.browserCdp ??= this.browser.target().createCDPSession();
    return this.browserCdp
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
