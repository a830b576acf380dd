/**
 * Headless Chromium, as the core uses it (the engine's fetch stage and the runbook interpreter),
 * in Gleaner's own types: the core never sees the driver (puppeteer, CDP). The adapter
 * (adapters/browser/puppeteer-browser.ts) owns launch details, request tracking, request
 * interception and the hardening every Gleaner browser gets (no-UDP flags, profile and page
 * script); the core owns governance (egress proxy, target policy), tab reuse and the pipeline.
 */

/** Options of {@link BrowserLauncher.launch}. */
export interface LaunchOptions {
  /** The in-process egress proxy every request of the browser goes through. */
  proxyUrl: string;
  userAgent?: string;
  /**
   * Aborting it gives the launch up at once: a Chromium still starting is killed, its profile
   * removed, and no other executable is tried (a run cancelled or out of time, or shutdown).
   */
  signal?: AbortSignal;
}

/**
 * Starts browsers. `launch` starts one whose traffic goes through `proxyUrl` (the in-process
 * egress proxy). Throws AppError 503 `browser_unavailable` with install advice when none starts,
 * and the same error, saying so, when `signal` aborts first.
 */
export interface BrowserLauncher {
  launch(opts: LaunchOptions): Promise<Browser>;
}

/** How tabs render (a tenant's browser profile): never identity (the User-Agent stays Gleaner's). */
export interface RenderProfile {
  viewport: { width: number; height: number };
  device_scale_factor: number;
  is_mobile: boolean;
  locale: string;
  timezone: string;
  color_scheme: 'light' | 'dark';
}

/** Options of {@link Browser.newTab}. */
export interface TabOptions {
  /** Default timeout (ms) of navigations and waits that are not given one. */
  timeoutMs: number;
  /** Rendering settings (viewport, time zone, colour scheme, Accept-Language). */
  profile?: RenderProfile;
  /**
   * Every document request of the tab (a navigation, each hop of its redirect chain, a frame)
   * is held before it is sent until this resolves; a rejection fails the request as blocked.
   */
  admitDocument?: AdmitDocument;
}

/**
 * Governs a document request, or a redirect hop of a subresource (`subresource`), before the
 * browser sends it (issue 19 finding 1: robots.txt, target policy and politeness of the hop's own
 * host). Rejects to refuse it.
 */
export type AdmitDocument = (url: string, info: { mainFrame: boolean; subresource?: boolean }) => Promise<void>;

/**
 * Screens a URL with the egress guard without dialling it, counting a refusal as the proxy does
 * (rejects when refused). Called for every asset a {@link FetchTab} keeps from loading.
 */
export type Screen = (url: string) => Promise<void>;

/** Options of {@link Browser.newFetchTab}. */
export interface FetchTabOptions extends TabOptions {
  /** Every image, font and media request held back by {@link FetchTab.blockAssets} goes through it. */
  screen: Screen;
}

/** A running browser. Every tab runs the no-UDP page script before any page script. */
export interface Browser {
  /** A plain tab (runbooks drive it step by step). */
  newTab(opts: TabOptions): Promise<Tab>;
  /** A tab for the engine's fetch stage: readiness tracking, asset blocking, dialogs dismissed. */
  newFetchTab(opts: FetchTabOptions): Promise<FetchTab>;
  /** Tabs open in the browser right now (its initial blank tab included). */
  tabCount(): Promise<number>;
  /**
   * Tell the browser memory is critically short: it drops caches and collects garbage. Best
   * effort: never rejects.
   */
  purgeMemory(): Promise<void>;
  /** Close every tab and the browser; resolves once its process and profile are gone. */
  close(): Promise<void>;
  /** OS process id, when known (benchmarks sample its memory). */
  readonly pid: number | undefined;
}

/** The main document's response to a navigation. Plain data except the body. */
export interface TabResponse {
  /** URL of this (last) hop. */
  url: string;
  status: number;
  /** Lower-case names; repeated headers joined with `\n`. */
  headers: Record<string, string>;
  /** URLs of the redirect hops that led here, oldest first. */
  redirectChain: string[];
  /** The body as received; rejects when the browser no longer has it (a client-side navigation). */
  body(): Promise<Uint8Array>;
  /**
   * True when the browser did not render this response but gave the navigation up as a download
   * (the @sparticuz/chromium build deployed to Lambda does so for a PDF, every build for an
   * attachment or a binary type): the tab still shows its previous document, and the body is
   * not kept. The engine then reads the document over http.
   */
  download?: boolean;
}

/** `load`: the load event; `networkidle2`: at most 2 connections for 500 ms. */
export type WaitUntil = 'load' | 'networkidle2';

/** Readiness tuning: see {@link FetchTab.settle}. */
export interface SettleRule {
  /** Quiet window: no DOM change and no content request in flight for this long (ms). */
  quietMs: number;
  /**
   * A shorter window (ms) that is enough when nothing the page scheduled (a timer, an animation
   * frame, an idle callback) is due before the quiet window would end and nothing it started is
   * still to answer (a fetch or its body, an XHR): a page whose last request came
   * back and whose DOM stopped changing, with nothing pending, is done. A message the page posts
   * (a scheduler handing on its next slice) counts as a change. Absent: the whole quiet window.
   */
  idleMs?: number;
  /** Longest wait after `load` (ms): pages that never go quiet (tickers, long polls) stop here. */
  capMs: number;
}

/**
 * One browser tab. Selectors are CSS (puppeteer's extensions aside); waits reject with an Error
 * named `TimeoutError` when they time out; every method rejects once the tab is closed.
 */
export interface Tab {
  /** Current URL (`chrome-error://…` after a failed navigation). */
  url(): string;
  isClosed(): boolean;
  /** Navigate; null when there is no main-document response (same-document navigation). */
  goto(url: string, opts: { waitUntil: WaitUntil; timeoutMs: number }): Promise<TabResponse | null>;
  /** Wait for the next main-frame navigation to reach `networkidle2`. */
  waitForNavigation(opts: { timeoutMs: number }): Promise<TabResponse | null>;
  /** Call `listener` whenever the main frame starts a navigation request; returns the unsubscribe. */
  onMainFrameNavigation(listener: () => void): () => void;
  /** Call `listener` once when the tab closes (whoever closed it). */
  onClose(listener: () => void): void;
  waitForSelector(selector: string, opts: { timeoutMs: number }): Promise<void>;
  /** Wait for a visible, stable element, then click it. */
  click(selector: string, opts: { timeoutMs: number }): Promise<void>;
  /** Wait for an editable element, then replace its value. */
  fill(selector: string, value: string, opts: { timeoutMs: number }): Promise<void>;
  /** Press a key (puppeteer key names: `Enter`, `ArrowDown`, `a`; `Control+A` holds the modifiers). */
  press(key: string): Promise<void>;
  /** `href` of the first element matching `selector`: undefined when none, null when it is no link. */
  linkHref(selector: string): Promise<string | null | undefined>;
  /** Evaluate a JavaScript expression (source text) in the page. */
  evaluate(expression: string): Promise<unknown>;
  /**
   * Evaluate an expression in a fresh isolated world of the main frame: the same DOM, but none of
   * the page's JavaScript (its globals, prototypes and overrides are not ours), so the page cannot
   * change what the expression computes. Its execution is terminated after `timeoutMs`; the
   * result is returned by value (JSON-like). Rejects when it throws or runs out of time.
   */
  evaluateIsolated(expression: string, opts: { timeoutMs: number }): Promise<unknown>;
  /** Serialized DOM of the main document. */
  content(): Promise<string>;
  /**
   * Evaluate `script` (an expression yielding the frame's HTML) in the main frame and in each
   * child frame (at most 3 deep, 20 per frame), after numbering every child frame's element with
   * `data-gleaner-frame="<id>"` in its parent. A frame that cannot be read is left out.
   */
  composedContent(script: string): Promise<ComposedFrame>;
  /** base64 PNG of the viewport, or of the whole page. */
  screenshot(opts?: { fullPage?: boolean }): Promise<string>;
  /** Identifies the main frame's current document; changes with every navigation to a new one. */
  documentId(): Promise<string>;
  /** Close the tab (and anything attached to it). Never rejects: it may already be closed. */
  close(): Promise<void>;
}

/** A frame as {@link Tab.composedContent} serialised it, with its child frames. */
export interface ComposedFrame {
  /** `data-gleaner-frame` of its element in the parent (absent for the main frame). */
  id?: string;
  url: string;
  html: string;
  frames: ComposedFrame[];
}

/** A tab of the engine's fetch stage, reused across pages. */
export interface FetchTab extends Tab {
  /**
   * Keep images, fonts and media from loading (true) or load them (false, for screenshots).
   * Held-back requests are failed without any connection and screened meanwhile (see
   * {@link FetchTabOptions.screen}; {@link settle} waits for the screens).
   */
  blockAssets(block: boolean): Promise<void>;
  /**
   * Draw the page's pixels (true: screenshots, page actions) or not (false: every other format).
   * Undrawn, the page runs exactly as before and cannot tell (same layout viewport, `innerWidth`,
   * `visualViewport`, `devicePixelRatio`, media queries, scrolling, IntersectionObserver,
   * animation frames at the same rate): only the compositor's visible area is scaled down, so it
   * rasterises and draws almost nothing.
   */
  drawPixels(draw: boolean): Promise<void>;
  /** Forget requests of the previous document (before a new navigation). */
  reset(): void;
  /**
   * Readiness after `load`: wait until no content request (document, script, XHR/fetch,
   * stylesheet) is in flight and neither the DOM nor the network changed for `rule.quietMs`
   * (`rule.idleMs` when no timer, animation frame or idle callback of the page is due within that
   * window and no fetch, body read or XHR of the page is still to answer),
   * never longer than `rule.capMs` after load nor past `deadline` (epoch ms). Then, within the
   * same bound, the screens of the assets held back so far finish (their refusals are counted).
   */
  settle(rule: SettleRule, deadline: number): Promise<void>;
}
