import type { CDPSession, Frame, HTTPRequest, HTTPResponse, KeyInput, Page } from 'puppeteer-core';
import type { AdmitDocument, ComposedFrame, Tab, TabResponse, WaitUntil } from '../../ports/browser.js';
import { RequestPause } from './request-pause.js';

/** A puppeteer response as the port's plain {@link TabResponse} (the body stays lazy). */
export function tabResponse(r: HTTPResponse | null, download = false): TabResponse | null {
  if (!r) return null;
  return {
    url: r.url(),
    status: r.status(),
    headers: r.headers(),
    redirectChain: r.request().redirectChain().map((q) => q.url()),
    body: () => r.buffer(),
    ...(download ? { download: true } : {}),
  };
}

/** How deep and how many child frames {@link PuppeteerTab.composedContent} reads. */
const MAX_FRAME_DEPTH = 3;
const MAX_CHILD_FRAMES = 20;

/** Names each isolated world {@link PuppeteerTab.evaluateIsolated} creates apart. */
let isolatedWorlds = 0;

/** Chromium's message when it gives a navigation up (a download, among other reasons). */
const ABORTED = /net::ERR_ABORTED/;

/** How long an aborted navigation waits for its main document's response event (see orDownload). */
const RESPONSE_GRACE_MS = 2_000;

/**
 * The port's {@link Tab} on a puppeteer page. Timeouts are passed on as given; puppeteer's own
 * `TimeoutError` (name `TimeoutError`) is what the runbook log reports as `timeout`.
 */
export class PuppeteerTab implements Tab {
  /** CDP session of the page (created on first use; a fetch tab opens it at once). */
  protected cdp: CDPSession | undefined;

  constructor(protected readonly page: Page) {}

  /** A tab whose every document request waits for `admit` (see request-pause.ts). */
  static async withAdmission(page: Page, admit: AdmitDocument): Promise<PuppeteerTab> {
    const tab = new PuppeteerTab(page);
    tab.cdp = await page.createCDPSession();
    await RequestPause.attach(tab.cdp, admit);
    return tab;
  }

  url(): string {
    return this.page.url();
  }

  isClosed(): boolean {
    return this.page.isClosed();
  }

  async goto(url: string, opts: { waitUntil: WaitUntil; timeoutMs: number }): Promise<TabResponse | null> {
    return this.orDownload(async () => tabResponse(await this.page.goto(url, { waitUntil: opts.waitUntil, timeout: opts.timeoutMs })));
  }

  async waitForNavigation(opts: { timeoutMs: number }): Promise<TabResponse | null> {
    return this.orDownload(async () => tabResponse(await this.page.waitForNavigation({ waitUntil: 'networkidle2', timeout: opts.timeoutMs })));
  }

  /**
   * Run a navigation; when Chromium aborts it after the main document answered (it turned the
   * response into a download: a PDF on the headless shell, an attachment, a binary type), the
   * answer is that response, marked `download`, instead of `net::ERR_ABORTED`. The response event
   * can come after the abort (about one download in six without request interception): an
   * aborted navigation waits up to {@link RESPONSE_GRACE_MS} for it.
   */
  private async orDownload(navigate: () => Promise<TabResponse | null>): Promise<TabResponse | null> {
    let last: HTTPResponse | null = null;
    let seen: (() => void) | undefined;
    const onResponse = (r: HTTPResponse) => {
      const req = r.request();
      if (!req.isNavigationRequest() || req.frame() !== this.page.mainFrame() || (r.status() >= 300 && r.status() < 400)) return;
      last = r;
      seen?.();
    };
    this.page.on('response', onResponse);
    try {
      return await navigate();
    } catch (err) {
      if (!ABORTED.test((err as Error)?.message ?? '')) throw err;
      if (!last) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, RESPONSE_GRACE_MS);
          seen = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const doc = last as HTTPResponse | null;
      if (doc) return tabResponse(doc, true);
      throw err;
    } finally {
      this.page.off('response', onResponse);
    }
  }

  onMainFrameNavigation(listener: () => void): () => void {
    const onRequest = (req: HTTPRequest) => {
      if (req.isNavigationRequest() && req.frame() === this.page.mainFrame()) listener();
    };
    this.page.on('request', onRequest);
    return () => void this.page.off('request', onRequest);
  }

  onClose(listener: () => void): void {
    this.page.once('close', listener);
  }

  async waitForSelector(selector: string, opts: { timeoutMs: number }): Promise<void> {
    await this.page.waitForSelector(selector, { timeout: opts.timeoutMs });
  }

  async click(selector: string, opts: { timeoutMs: number }): Promise<void> {
    await this.page.locator(selector).setTimeout(opts.timeoutMs).click();
  }

  async fill(selector: string, value: string, opts: { timeoutMs: number }): Promise<void> {
    await this.page.locator(selector).setTimeout(opts.timeoutMs).fill(value);
  }

  async press(key: string): Promise<void> {
    const parts = key.split('+');
    const main = parts.pop()!;
    for (const m of parts) await this.page.keyboard.down(m as KeyInput);
    try {
      await this.page.keyboard.press(main as KeyInput);
    } finally {
      for (const m of parts.reverse()) await this.page.keyboard.up(m as KeyInput).catch(() => {});
    }
  }

  async linkHref(selector: string): Promise<string | null | undefined> {
    const el = await this.page.$(selector);
    if (!el) return undefined;
    try {
      return await el.evaluate((n) => (n instanceof HTMLAnchorElement ? n.href : null));
    } finally {
      await el.dispose().catch(() => {});
    }
  }

  evaluate(expression: string): Promise<unknown> {
    return this.page.evaluate(expression);
  }

  async evaluateIsolated(expression: string, opts: { timeoutMs: number }): Promise<unknown> {
    this.cdp ??= await this.page.createCDPSession();
    const tree = await this.cdp.send('Page.getFrameTree');
    // A new world per call: nothing an earlier evaluation (or the page) left in one can carry over.
    const world = await this.cdp.send('Page.createIsolatedWorld', { frameId: tree.frameTree.frame.id, worldName: `gleaner-isolated-${++isolatedWorlds}`, grantUniveralAccess: false });
    const r = await this.cdp.send('Runtime.evaluate', { expression, contextId: world.executionContextId, returnByValue: true, awaitPromise: true, timeout: opts.timeoutMs });
    if (r.exceptionDetails) throw new Error(`Evaluation failed: ${(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text).split('\n')[0]}`);
    return r.result.value;
  }

  content(): Promise<string> {
    return this.page.content();
  }

  async composedContent(script: string): Promise<ComposedFrame> {
    const visit = async (frame: Frame, depth: number): Promise<ComposedFrame> => {
      const frames: ComposedFrame[] = [];
      if (depth < MAX_FRAME_DEPTH) {
        let n = 0;
        for (const child of frame.childFrames().slice(0, MAX_CHILD_FRAMES)) {
          const id = `${depth}-${n++}`;
          try {
            const el = await child.frameElement();
            if (!el) continue;
            try {
              await el.evaluate((e, v) => e.setAttribute('data-gleaner-frame', v), id);
            } finally {
              await el.dispose().catch(() => {});
            }
            frames.push({ ...(await visit(child, depth + 1)), id });
          } catch {
            // A frame detached or navigating meanwhile: left out.
          }
        }
      }
      return { url: frame.url(), html: String(await frame.evaluate(script)), frames };
    };
    return visit(this.page.mainFrame(), 0);
  }

  async screenshot(opts: { fullPage?: boolean } = {}): Promise<string> {
    return (await this.page.screenshot({ type: 'png', encoding: 'base64', fullPage: opts.fullPage })) as string;
  }

  /** The main frame's CDP loader id: a new one for every document it loads. */
  async documentId(): Promise<string> {
    this.cdp ??= await this.page.createCDPSession();
    const tree = (await this.cdp.send('Page.getFrameTree')) as { frameTree: { frame: { loaderId: string } } };
    return tree.frameTree.frame.loaderId;
  }

  /** Never rejects: a tab already closed (by an abort, or the browser) is fine. */
  async close(): Promise<void> {
    await this.cdp?.detach().catch(() => {});
    await this.page.close().catch(() => {});
  }
}
