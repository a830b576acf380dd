import type { CDPSession } from 'puppeteer-core';
import type { AdmitDocument, Screen } from '../../ports/browser.js';

/**
 * Resource types the browser engine does not load unless a screenshot needs them: they never
 * change the DOM the text formats read, and they are most of a page's bytes and decode time.
 */
export const ASSET_TYPES = ['Image', 'Font', 'Media'] as const;

interface Paused {
  requestId: string;
  frameId?: string;
  resourceType?: string;
  request: { url: string };
  /** Set when this request is a redirect hop: the id of the request whose response redirected. */
  redirectedRequestId?: string;
}

/**
 * The requests a tab holds in the browser before they are sent (CDP Fetch, Request stage, only
 * for the types asked for, so nothing else makes a round trip to Node):
 *
 * - documents (navigations, every redirect hop Chromium follows, frames), when the tab has an
 *   {@link AdmitDocument}: sent once it resolves, failed as blocked when it rejects;
 * - with an {@link AdmitDocument}, every redirect hop of a subresource (a script, style, image…
 *   whose response redirected): admitted the same way (robots.txt, target policy and gate of the
 *   hop's own host), so a page cannot reach a host's disallowed paths through a redirecting asset.
 *   Other subresources are continued at once (their first request is screened by the egress proxy);
 * - images, fonts and media while assets are blocked: failed without any connection, and screened
 *   by the egress guard meanwhile (a refusal is counted as the proxy would; {@link screened}).
 */
export class RequestPause {
  private blockingAssets = false;
  /** Screens of blocked assets still running (see onPaused). */
  private readonly screening = new Set<Promise<void>>();
  /** The tab's main frame (its id stays the same across the tab's navigations). */
  private mainFrameId: string | undefined;

  private constructor(private readonly cdp: CDPSession, private readonly admit: AdmitDocument | undefined, private readonly screen: Screen | undefined) {}

  /** Start holding documents (when `admit` is given) on `cdp`. */
  static async attach(cdp: CDPSession, admit: AdmitDocument | undefined, screen?: Screen): Promise<RequestPause> {
    const pause = new RequestPause(cdp, admit, screen);
    if (admit) {
      const tree = (await cdp.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
      pause.mainFrameId = tree.frameTree.frame.id;
    }
    cdp.on('Fetch.requestPaused', (e: Paused) => void pause.onPaused(e));
    await pause.apply();
    return pause;
  }

  /** Hold images, fonts and media (and fail them after screening) or let them load. */
  async blockAssets(block: boolean): Promise<void> {
    if (block === this.blockingAssets) return;
    this.blockingAssets = block;
    if (this.admit) return; // every request pauses already (see apply)
    await this.apply();
  }

  private async apply(): Promise<void> {
    // With an admitter every request pauses (a redirect hop of any type must be seen); without
    // one only the assets being blocked do.
    if (this.admit) await this.cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' as const }] });
    else if (this.blockingAssets) await this.cdp.send('Fetch.enable', { patterns: ASSET_TYPES.map((resourceType) => ({ resourceType: resourceType as 'Document', requestStage: 'Request' as const })) });
    else await this.cdp.send('Fetch.disable');
  }

  private async onPaused(e: Paused): Promise<void> {
    const fail = () => this.cdp.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'BlockedByClient' }).catch(() => {});
    const go = () => this.cdp.send('Fetch.continueRequest', { requestId: e.requestId }).catch(() => {});
    const isAsset = (ASSET_TYPES as readonly string[]).includes(e.resourceType ?? '');
    const admit = this.admit;
    // A document, or a redirect hop of a subresource that is not an asset being blocked anyway.
    const info = !admit ? null
      : e.resourceType === 'Document' ? { mainFrame: e.frameId === undefined || e.frameId === this.mainFrameId }
      : e.redirectedRequestId && !(this.blockingAssets && isAsset) ? { mainFrame: false, subresource: true }
      : null;
    if (admit && info) {
      const admitted = await admit(e.request.url, info).then(() => true, () => false);
      await (admitted ? go() : fail());
      return;
    }
    if (!this.blockingAssets || !isAsset) {
      await go();
      return;
    }
    // Failed at once, screened meanwhile: the page's `load` does not wait for the guard's DNS
    // lookup of every asset host. The fetch tab's settle waits for the screens (see screened()).
    const screening = (this.screen?.(e.request.url) ?? Promise.resolve()).catch(() => {});
    this.screening.add(screening);
    void screening.finally(() => this.screening.delete(screening));
    await fail();
  }

  /** Resolves once every asset screen started so far has finished (its refusal counted). */
  screened(): Promise<void> {
    return this.screening.size ? Promise.all(this.screening).then(() => undefined) : Promise.resolve();
  }
}
