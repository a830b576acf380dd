import type { CDPSession, HTTPRequest, Page } from 'puppeteer-core';
import type { AdmitDocument, FetchTab, Screen, SettleRule } from '../../ports/browser.js';
import { PuppeteerTab } from './puppeteer-tab.js';
import { RequestPause } from './request-pause.js';

/**
 * Resource types the browser engine does not load unless a screenshot needs them (see
 * request-pause.ts); still screened by the egress guard, so a refused one is counted exactly as
 * if the proxy had seen it.
 */

/**
 * The scale the compositor draws an undrawn tab's viewport at ({@link PuppeteerFetchTab.drawPixels}):
 * 1280x900 becomes 13x9 pixels. On the peers bench's JavaScript pages the rendering pipeline
 * (compositor, raster and display threads) was about 40% of Chromium's CPU a page.
 */
export const UNDRAWN_SCALE = 0.01;

/** Request types whose completion can still change the DOM (what readiness waits for). */
const CONTENT_TYPES = new Set(['document', 'script', 'xhr', 'fetch', 'stylesheet']);

/**
 * Runs before any page script in every document of a fetch tab: keeps the due times of the
 * timers (`setTimeout`, `setInterval`), animation frames and idle callbacks the page has pending,
 * and counts the work it waits on (a `fetch` until it settles, a `Response` body read, an XHR until
 * `loadend`) and notes when it last posted a message (a scheduler's next slice through a
 * `MessageChannel`), so readiness ({@link QUIET_SCRIPT}) knows whether anything can still change
 * the DOM soon.
 * The page's calls behave as before (same ids, arguments, `this`, errors); a callback is wrapped
 * only to note that it ran. A timer more than 100 ms overdue (a throttled or string timer whose run
 * is not seen) no longer counts (timers had 50 ms until a fresh clone's suite on a loaded machine
 * missed an interval's fourth run once); a frame, 400 ms (frames that each work 60 ms came further
 * apart than 100 ms in a loaded suite; a tab that draws no frames holds a page that long at most).
 * Kept in `Symbol.for('gleaner.timers')`, with the original `setTimeout` for the readiness script's own waits (which must not count).
 */
export const TIMERS_SCRIPT = `(() => {
  const key = Symbol.for('gleaner.timers');
  if (window[key]) return;
  const w = window, now = () => performance.now();
  const st = w.setTimeout, ct = w.clearTimeout, si = w.setInterval, ci = w.clearInterval;
  const raf = w.requestAnimationFrame, caf = w.cancelAnimationFrame;
  const GRACE = 100, FRAME = 16, IDLE_DUE = 50, FRAME_GRACE = 400;
  const isFrame = (id) => typeof id === 'string' && id[0] === 'f';
  const graceOf = (id) => (isFrame(id) ? FRAME_GRACE : GRACE);
  // timer id (or 'f' + frame id) -> due time; deleted when it ran or was cleared.
  const due = new Map();
  // When the last frames in which a page's frame callback ran began (the readiness script counts
  // the frames since the page last changed: see QUIET_SCRIPT), and that frame's own time stamp.
  const frames = [];
  let frameStamp;
  // Work in flight the page will answer (a fetch, its body read, an XHR) and when the page last
  // handed work on (a message posted to itself: a scheduler's next slice), for readiness. (A fetch
  // the page lets fail unhandled no longer raises unhandledrejection: the note of its end handles it.)
  const act = { t: 0, pending: 0 };
  const busy = () => { act.t = now(); };
  // One piece of work begins; the function returned ends it (once, however often it is called).
  const hold = () => {
    act.pending++;
    busy();
    let open = true;
    return () => { if (open) { open = false; act.pending--; busy(); } };
  };
  const track = (p) => { const done = hold(); p.then(done, done); return p; };
  const delay = (ms) => Math.max(0, Number(ms) || 0);
  Object.defineProperty(w, key, { value: {
    wait: (fn, ms) => st.call(w, fn, ms),
    act,
    /** The earliest due time, at most \`until\`, of a pending timer or frame; Infinity when none. */
    next(until) {
      const t = now();
      let first = Infinity;
      for (const [id, at] of due) {
        if (at + graceOf(id) < t) { due.delete(id); continue; }
        if (at <= until && at < first) first = at;
      }
      return first;
    },
    /** Whether a frame callback of the page is pending (requested, not run, not long overdue). */
    framePending() {
      const t = now();
      for (const [id, at] of due) if (isFrame(id) && at + FRAME_GRACE >= t) return true;
      return false;
    },
    /** How many frames in which a page's frame callback ran began after \`t\`. */
    framesSince(t) {
      let n = 0;
      for (let i = frames.length - 1; i >= 0 && frames[i] > t; i--) n++;
      return n;
    },
  } });
  w.setTimeout = function setTimeout(handler, timeout, ...args) {
    let id;
    const fn = typeof handler === 'function' ? function () { due.delete(id); return handler.apply(this, arguments); } : handler;
    id = st.call(this, fn, timeout, ...args);
    due.set(id, now() + delay(timeout));
    return id;
  };
  w.setInterval = function setInterval(handler, timeout, ...args) {
    let id;
    const fn = typeof handler === 'function' ? function () { due.set(id, now() + delay(timeout)); return handler.apply(this, arguments); } : handler;
    id = si.call(this, fn, timeout, ...args);
    due.set(id, now() + delay(timeout));
    return id;
  };
  w.clearTimeout = function clearTimeout(id) { due.delete(id); return ct.apply(this, arguments); };
  w.clearInterval = function clearInterval(id) { due.delete(id); return ci.apply(this, arguments); };
  if (typeof w.fetch === 'function') {
    const f = w.fetch;
    w.fetch = function fetch() { return track(f.apply(this, arguments)); };
  }
  if (w.Response && w.Response.prototype) {
    for (const m of ['json', 'text', 'arrayBuffer', 'blob', 'formData']) {
      const o = w.Response.prototype[m];
      if (typeof o === 'function') w.Response.prototype[m] = { [m]() { return track(o.apply(this, arguments)); } }[m];
    }
  }
  if (w.XMLHttpRequest && w.XMLHttpRequest.prototype) {
    const xsend = w.XMLHttpRequest.prototype.send;
    w.XMLHttpRequest.prototype.send = function send() {
      const end = hold();
      this.addEventListener('loadend', end);
      try { return xsend.apply(this, arguments); } catch (e) { end(); throw e; }
    };
  }
  const pm = w.postMessage;
  w.postMessage = function postMessage() { busy(); return pm.apply(this, arguments); };
  if (w.MessagePort && w.MessagePort.prototype) {
    const ppm = w.MessagePort.prototype.postMessage;
    w.MessagePort.prototype.postMessage = function postMessage() { busy(); return ppm.apply(this, arguments); };
  }
  if (typeof w.requestIdleCallback === 'function') {
    const ric = w.requestIdleCallback, cic = w.cancelIdleCallback;
    w.requestIdleCallback = function requestIdleCallback(callback, options) {
      if (typeof callback !== 'function') return ric.apply(this, arguments);
      let id;
      id = ric.call(this, function () { due.delete('i' + id); return callback.apply(this, arguments); }, options);
      due.set('i' + id, now() + IDLE_DUE);
      return id;
    };
    w.cancelIdleCallback = function cancelIdleCallback(id) { due.delete('i' + id); return cic.apply(this, arguments); };
  }
  if (typeof raf === 'function') {
    w.requestAnimationFrame = function requestAnimationFrame(callback) {
      if (typeof callback !== 'function') return raf.apply(this, arguments);
      let id;
      id = raf.call(this, function (stamp) {
        due.delete('f' + id);
        if (stamp !== frameStamp) { frameStamp = stamp; frames.push(now()); if (frames.length > 32) frames.shift(); }
        return callback.apply(this, arguments);
      });
      due.set('f' + id, now() + FRAME);
      return id;
    };
    w.cancelAnimationFrame = function cancelAnimationFrame(id) { due.delete('f' + id); return caf.apply(this, arguments); };
  }
})();`;

/**
 * Runs in the page: resolves once neither the DOM nor the network changed for `quiet` ms (and,
 * while the page has a frame callback pending, for MIN_FRAMES of its frames: on a loaded machine
 * six frames took longer than 150 ms, and a page writing on its sixth frame came out without it), or
 * after `cap` ms; already after `idle` ms when no timer, animation frame or idle callback the page
 * scheduled (see {@link TIMERS_SCRIPT}) is due before the `quiet` window would end and no work it
 * started (a fetch, a body read, an XHR) is still to answer; a message it posted counts as a
 * change. (A script the page adds is a request in flight, seen from Node, until it has loaded; one
 * written in as HTML never loads nor runs, so it is not counted here.) The network side comes from
 * Node: it has been quiet for `netQuietFor` ms when the call starts. DOM changes are child-list and
 * text mutations (attribute changes are animation noise), seen by one observer per document,
 * installed on the first call. A document without any script (or meta refresh) is done at once:
 * nothing can change it. Without the timer hooks (a document they did not reach) it waits the
 * whole `quiet` window. Kept as source text: a compiled
 * function would carry the bundler's helpers (`__name`) into a page that lacks them.
 */
const QUIET_SCRIPT = `(quiet, idle, cap, netQuietFor) => new Promise((resolve) => {
  // Without a script (nor a meta refresh) nothing can change the document after load.
  if (!document.querySelector('script, meta[http-equiv="refresh" i]')) return resolve();
  const key = Symbol.for('gleaner.lastMutation');
  const timers = window[Symbol.for('gleaner.timers')];
  const act = timers && timers.act;
  let state = window[key];
  if (!state) {
    state = { t: 0 };
    Object.defineProperty(window, key, { value: state });
    new MutationObserver(() => { state.t = performance.now(); })
      .observe(document, { subtree: true, childList: true, characterData: true });
  }
  const wait = timers ? timers.wait : (fn, ms) => setTimeout(fn, ms);
  const MIN_FRAMES = 8, FRAME_WAIT = 16;
  const start = performance.now();
  const netSince = start - netQuietFor;
  const tick = () => {
    const now = performance.now();
    const last = Math.max(state.t, netSince, act ? act.t : 0);
    const quietFor = now - last;
    if (now - start >= cap) return resolve();
    if (quietFor >= quiet) {
      // A page drawing frame by frame is quiet after MIN_FRAMES of its frames as well: a loaded
      // machine draws slowly, and the page's frame-driven work must not be cut short by the clock.
      if (!timers || !timers.framePending() || timers.framesSince(last) >= MIN_FRAMES) return resolve();
      return wait(tick, Math.max(1, Math.min(FRAME_WAIT, cap - (now - start))));
    }
    let next = last + quiet;
    if (quietFor < idle) next = last + idle;
    // Work the page is waiting on (a fetch, a body read, an XHR): not idle yet.
    else if (act && act.pending > 0) next = now + Math.max(1, idle);
    else if (timers) {
      const due = timers.next(last + quiet);
      if (due === Infinity) return resolve();
      next = Math.max(due, now) + 1;
    }
    wait(tick, Math.max(1, Math.min(next - now, cap - (now - start))));
  };
  tick();
})`;

/**
 * The port's {@link FetchTab}: a reusable tab of the browser engine. It tracks the content
 * requests in flight (for {@link settle}) and, when asked, keeps images, fonts and media from
 * loading: those requests are paused in the browser (CDP Fetch, only for those types, so nothing
 * else makes a round trip to Node), screened by the egress guard (a forbidden one is refused and
 * counted as the proxy would), then failed without any connection.
 */
export class PuppeteerFetchTab extends PuppeteerTab implements FetchTab {
  private readonly inflight = new Set<HTTPRequest>();
  private lastNetwork = 0;
  private idleWaiter: (() => void) | undefined;
  private pause!: RequestPause;
  /** Whether the viewport is drawn at full scale (see drawPixels): a new tab is. */
  private drawing = true;

  private constructor(
    page: Page,
    fetchCdp: CDPSession,
  ) {
    super(page);
    this.cdp = fetchCdp; // shared with documentId(), detached by close()
  }

  /** Wrap a fresh page: request tracking, the asset screen and the document admission. */
  static async attach(page: Page, screen: Screen, admitDocument?: AdmitDocument): Promise<PuppeteerFetchTab> {
    const cdp = await page.createCDPSession();
    const tab = new PuppeteerFetchTab(page, cdp);
    await page.evaluateOnNewDocument(TIMERS_SCRIPT);
    tab.pause = await RequestPause.attach(cdp, admitDocument, screen);
    const touch = () => (tab.lastNetwork = performance.now());
    page.on('request', (r) => {
      if (!CONTENT_TYPES.has(r.resourceType())) return;
      tab.inflight.add(r);
      touch();
    });
    const done = (r: HTTPRequest) => {
      if (!tab.inflight.delete(r)) return;
      touch();
      if (tab.inflight.size === 0) tab.idleWaiter?.();
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    // A dialog would block the tab until someone answers it; nobody will.
    page.on('dialog', (d) => void d.dismiss().catch(() => {}));
    return tab;
  }

  /** Load images, fonts and media (screenshots) or not (every other format). */
  async blockAssets(block: boolean): Promise<void> {
    await this.pause.blockAssets(block);
  }

  /**
   * Draw the viewport at full scale or at {@link UNDRAWN_SCALE} (see FetchTab.drawPixels). The
   * device metrics are puppeteer's own (`page.viewport()`, as its emulation sends them), given
   * again on this tab's session with or without a scaled visible area (`viewport`, which "is not
   * observed by the page"): the last override sent is the one Chromium applies, so puppeteer's
   * own later ones (a full-page screenshot's) still work. A tab without an emulated viewport
   * draws as it is.
   */
  async drawPixels(draw: boolean): Promise<void> {
    if (draw === this.drawing) return;
    const v = this.page.viewport();
    if (!v) return;
    const metrics = {
      width: v.width,
      height: v.height,
      deviceScaleFactor: v.deviceScaleFactor ?? 1,
      mobile: v.isMobile ?? false,
      screenOrientation: v.isLandscape ? { angle: 90, type: 'landscapePrimary' as const } : { angle: 0, type: 'portraitPrimary' as const },
    };
    await this.cdp!.send('Emulation.setDeviceMetricsOverride', draw ? metrics : { ...metrics, viewport: { x: 0, y: 0, width: v.width, height: v.height, scale: UNDRAWN_SCALE } });
    this.drawing = draw;
  }

  /** Forget requests of the previous document (a new navigation cancels them). */
  reset(): void {
    this.inflight.clear();
    this.lastNetwork = performance.now();
  }

  /**
   * Readiness after `load`: wait until no content request (document, script, XHR/fetch,
   * stylesheet) is in flight and neither the DOM nor the network changed for `quietMs`, counted
   * from `load` at the earliest. So content an XHR brings after `load` is there, and a page that
   * is done at `load` costs one quiet window. Never longer than `capMs` after load nor past
   * `deadline` (tickers, long polls). Cheaper than `networkidle2` (a fixed 500 ms of idle network,
   * images included) and stricter about late XHRs. The held-back assets' screens (request-pause.ts)
   * run meanwhile; what is left of them is waited for at the end, within the same bound.
   */
  async settle(rule: SettleRule, deadline: number): Promise<void> {
    const loadAt = performance.now();
    const end = Math.min(deadline, Date.now() + rule.capMs);
    await this.quiet(rule, end, loadAt);
    // Blocked assets were failed at once and screened meanwhile (request-pause.ts): their
    // refusals are counted before the page is handed on (within the same bound).
    const left = end - Date.now();
    if (left > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.pause.screened(), new Promise<void>((r) => (timer = setTimeout(r, left)))]);
      clearTimeout(timer);
    }
  }

  /** The DOM-and-network quiet window of {@link settle}, until `end`. */
  private async quiet(rule: SettleRule, end: number, loadAt: number): Promise<void> {
    for (;;) {
      const left = end - Date.now();
      if (left <= 0) return;
      if (this.inflight.size > 0) {
        await this.networkIdle(left);
        continue;
      }
      const mark = this.lastNetwork;
      const netQuietFor = Math.max(0, performance.now() - Math.max(this.lastNetwork, loadAt));
      try {
        await this.page.evaluate(`(${QUIET_SCRIPT})(${Number(rule.quietMs)}, ${Number(Math.min(rule.idleMs ?? rule.quietMs, rule.quietMs))}, ${Number(left)}, ${netQuietFor})`);
      } catch {
        // The document changed under us (a script navigation): settle the new one.
        if (this.page.isClosed()) return;
        await new Promise((r) => setTimeout(r, Math.min(50, left)));
        continue;
      }
      if (this.inflight.size === 0 && this.lastNetwork === mark) return;
    }
  }

  private networkIdle(ms: number): Promise<void> {
    if (this.inflight.size === 0 || ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const t = setTimeout(finish, ms);
      function finish() {
        clearTimeout(t);
        resolve();
      }
      this.idleWaiter = () => {
        this.idleWaiter = undefined;
        finish();
      };
    });
  }
}
