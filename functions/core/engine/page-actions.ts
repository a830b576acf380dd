import { targetForbidden } from '../errors.js';
import { isAllowlisted, type TargetPolicy } from '../governance/target-policy.js';
import type { FetchTab, Tab, TabResponse } from '../../ports/browser.js';
import type { BrowserSession } from './fetch-browser.js';

/**
 * The one interpreter of page interactions (DESIGN.md "Page actions"): runbook steps
 * (scrapers/runbook.ts) and the `actions` of a scrape (scrape-actions.ts) both drive a tab through
 * a {@link PageActions}, so a fix to `click` or `wait` serves both. Governance is the tab's: every
 * document request an action causes (a navigating click, a form submitted by `press`) passes the
 * session's document admission like any redirect hop (target policy, egress guard, robots.txt),
 * and a refusal fails the action with that refusal.
 */

/** An action failed in a way its caller should report (code + message, no stack). */
export class ActionFailure extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'ActionFailure';
  }
}

/** A tenant secret as {@link PageActions.fill} needs it. */
export interface ResolvedSecret {
  value: string;
  domains: string[];
}

/** What {@link PageActions} needs from its caller. */
export interface PageActionsOptions {
  tab: Tab;
  session: BrowserSession;
  /** Default timeout of each action (ms). */
  timeoutMs: number;
  /** The tenant's target policy: secrets are filled only on allowlisted hosts. */
  policy: TargetPolicy;
  /** Resolve a tenant secret by name; absent: secrets are refused. */
  resolveSecret?: (name: string) => Promise<ResolvedSecret>;
  /** Told each secret value filled (to mask it everywhere it could leave). */
  onSecret?: (value: string) => void;
  /** Called after an action's own navigation finished (runbooks count and check it as a page). */
  onNavigation?: (requestedFrom: string, response: TabResponse | null) => Promise<void>;
  /** Called before every screenshot (the scrape hides consent overlays). */
  beforeScreenshot?: () => Promise<void>;
  /** Called after every screenshot, taken or failed (a runbook shows the overlays it hid again). */
  afterScreenshot?: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The error a wait that ran out of time rejects with (as puppeteer's, named `TimeoutError`). */
function timeoutError(message: string): Error {
  const e = new Error(message);
  e.name = 'TimeoutError';
  return e;
}

/** Longest wait for a page to go quiet after one scroll to the bottom (ms). */
export const SCROLL_SETTLE_CAP_MS = 5_000;

/** Longest `wait` without a selector (ms). */
export const MAX_WAIT_MS = 10_000;

/**
 * Page interactions on one tab, governed (see the module comment). Each method resolves to a
 * short description for a log, or rejects with {@link ActionFailure}, AppError (a refused
 * navigation: `target_forbidden`, or the admission's own error) or a `TimeoutError`.
 */
export class PageActions {
  /** The document a secret was typed into (see {@link refuseOnSecretPage}). */
  private secretDocument: string | null = null;
  /** Epoch ms no action may run past (see {@link limitTo}); none: each action's own timeout. */
  private deadline = Infinity;

  constructor(private readonly o: PageActionsOptions) {}

  /**
   * Bound every action from now on by `deadline` (epoch ms), the time the caller has left (issue
   * 37 finding 10: three 10 s pauses under a 3 s `timeout_ms` ran 30.9 s): each wait, click,
   * navigation and scroll gets at most what is left, and one that needs more fails as a timeout.
   */
  limitTo(deadline: number): void {
    this.deadline = deadline;
  }

  /** `want` ms, cut to the time left before the deadline; a `TimeoutError` when none is left. */
  private budget(want: number, what: string): number {
    const left = this.deadline - Date.now();
    if (left <= 0) throw timeoutError(`${what}: no time left (the page's time limit was reached)`);
    return Math.min(want, left);
  }

  get tab(): Tab {
    return this.o.tab;
  }

  /**
   * Click the first element matching `selector` (every match with `all`), then wait for and
   * govern the navigation it causes: `navigation` true waits for one, false never waits, absent
   * detects one started within 300 ms.
   */
  async click(selector: string, opts: { navigation?: boolean; all?: boolean; timeoutMs?: number } = {}): Promise<string> {
    const timeoutMs = this.budget(opts.timeoutMs ?? this.o.timeoutMs, `clicking ${selector}`);
    if (!opts.all) return this.navigating(`clicking ${selector}`, opts.navigation, () => this.o.tab.click(selector, { timeoutMs }));
    await this.o.tab.waitForSelector(selector, { timeoutMs });
    const count = Number(await this.o.tab.evaluate(`document.querySelectorAll(${JSON.stringify(selector)}).length`));
    for (let i = 0; i < count; i++) {
      this.budget(1, `clicking ${selector} #${i + 1}`);
      const nth = `(${JSON.stringify(selector)})`;
      // Each match in document order, clicked in the page (a hidden one is skipped, not waited for).
      await this.navigating(`clicking ${selector} #${i + 1}`, undefined, async () => {
        await this.o.tab.evaluate(`(() => { const el = document.querySelectorAll${nth}[${i}]; if (el) el.click(); })()`);
      });
      if (!/^https?:/.test(this.o.tab.url())) break;
    }
    return `clicked ${count} element(s)`;
  }

  /** Press a key (`Enter`, `ArrowDown`, `Control+A`…) on the focused element; a navigation it causes is governed. */
  async press(key: string): Promise<string> {
    this.budget(1, `pressing ${key}`);
    return this.navigating(`pressing ${key}`, undefined, () => this.o.tab.press(key));
  }

  /**
   * Replace an editable element's value with a literal or a tenant secret. A secret is filled only
   * when the page's host is allowlisted in the tenant's target policy (whatever its mode) and is
   * one of the domains the secret is bound to; screenshots and content of that document are then
   * refused ({@link refuseOnSecretPage}).
   */
  async fill(selector: string, value: string | { secret: string }, opts: { timeoutMs?: number } = {}): Promise<string> {
    const timeoutMs = this.budget(opts.timeoutMs ?? this.o.timeoutMs, `filling ${selector}`);
    if (typeof value === 'string') {
      await this.o.tab.fill(selector, value, { timeoutMs });
      return `filled ${selector}`;
    }
    const secret = await this.secret(value.secret);
    await this.o.tab.fill(selector, secret, { timeoutMs });
    return `filled ${selector} with secret:${value.secret}`;
  }

  /**
   * Wait for a selector to appear, or `ms` milliseconds (at most {@link MAX_WAIT_MS}), never past
   * the deadline: a pause longer than the time left waits what is left, then fails as a timeout.
   */
  async wait(opts: { selector?: string; ms?: number; timeoutMs?: number }): Promise<string> {
    if (opts.selector) {
      await this.o.tab.waitForSelector(opts.selector, { timeoutMs: this.budget(opts.timeoutMs ?? opts.ms ?? this.o.timeoutMs, `waiting for ${opts.selector}`) });
      return `found ${opts.selector}`;
    }
    const ms = Math.min(MAX_WAIT_MS, opts.ms ?? 1_000);
    const allowed = this.budget(ms, `waiting ${ms} ms`);
    await sleep(allowed);
    if (allowed < ms) throw timeoutError(`waiting ${ms} ms: only ${allowed} ms were left of the page's time limit`);
    return `waited ${ms} ms`;
  }

  /**
   * Scroll `times` times by `amount` pixels (default one viewport) up or down, or to the bottom
   * (`bottom`: until the page stops growing, so infinite lists load), pausing `delayMs` after each.
   */
  async scroll(opts: { direction?: 'down' | 'up'; amount?: number | 'bottom'; times?: number; delayMs?: number }): Promise<string> {
    const times = opts.times ?? 1;
    const delay = opts.delayMs ?? 250;
    const sign = opts.direction === 'up' ? -1 : 1;
    if (opts.amount === 'bottom') {
      // Until the document stops growing (infinite scroll loads more at the bottom), bounded in
      // rounds and by the action's timeout (what is left of the page's time).
      const end = Date.now() + this.budget(this.o.timeoutMs, 'scrolling');
      let rounds = 0;
      for (; rounds < 20 && Date.now() < end; rounds++) {
        const grew = await this.o.tab.evaluate(
          `(async () => { const h = document.documentElement.scrollHeight; window.scrollTo(0, ${sign > 0 ? 'h' : '0'}); return h; })()`,
        );
        await this.quiet(Math.max(delay, 400), end);
        const after = Number(await this.o.tab.evaluate('document.documentElement.scrollHeight'));
        if (sign < 0 || after <= Number(grew)) break;
      }
      return `scrolled to the ${sign > 0 ? 'bottom' : 'top'} (${rounds + 1} round(s))`;
    }
    for (let i = 0; i < times; i++) {
      this.budget(1, 'scrolling');
      const px = typeof opts.amount === 'number' ? String(opts.amount) : '(document.documentElement.clientHeight || 800)';
      await this.o.tab.evaluate(`window.scrollBy(0, ${sign} * ${px})`);
      if (delay) await sleep(Math.min(delay, Math.max(0, this.deadline - Date.now())));
    }
    return `scrolled ${times}x`;
  }

  /**
   * After a scroll: wait until the page is quiet for `ms` (no content request in flight, no DOM
   * change), at most {@link SCROLL_SETTLE_CAP_MS} and never past `end`, so more entries fetched on
   * scroll are in even when their request is slow. A tab that does not track its requests waits `ms`.
   */
  private async quiet(ms: number, end: number): Promise<void> {
    const tab = this.o.tab as Partial<FetchTab>;
    if (typeof tab.settle !== 'function') return void (await sleep(Math.min(ms, Math.max(0, end - Date.now()))));
    await tab.settle({ quietMs: ms, capMs: SCROLL_SETTLE_CAP_MS }, Math.min(end, Date.now() + SCROLL_SETTLE_CAP_MS));
  }

  /** A base64 PNG of the viewport or the whole page; refused on a page a secret was filled on. */
  async screenshot(fullPage?: boolean): Promise<string> {
    await this.refuseOnSecretPage('screenshot');
    await this.o.beforeScreenshot?.();
    try {
      return await this.o.tab.screenshot({ fullPage });
    } finally {
      await this.o.afterScreenshot?.();
    }
  }

  /**
   * Refuse `what` (screenshot, extract, content) on the document a secret was typed into, whatever
   * masking could do (a screenshot shows what the field shows; a page can move the value anywhere
   * in its DOM). A navigation to another document lifts it.
   */
  async refuseOnSecretPage(what: string): Promise<void> {
    if (this.secretDocument && this.secretDocument === (await this.o.tab.documentId())) {
      throw new ActionFailure('secret_on_page', `${what} is refused: a secret was filled on this page; navigate to another page first`);
    }
  }

  /** Resolve a secret for the current page, or refuse (see {@link fill}). */
  async secret(name: string): Promise<string> {
    const here = this.o.tab.url();
    if (!this.o.resolveSecret) throw new ActionFailure('invalid_request', 'Secrets cannot be used here');
    if (!/^https?:/.test(here) || !isAllowlisted(this.o.policy, here)) {
      const host = /^https?:/.test(here) ? new URL(here).hostname : here;
      throw new ActionFailure(
        'target_not_authorized',
        `Secrets are filled only on allowlisted domains; ${host} is not in this tenant's target policy allowlist`,
      );
    }
    const secret = await this.o.resolveSecret(name);
    if (!isAllowlisted({ mode: 'allowlist', domains: secret.domains }, here)) {
      throw new ActionFailure(
        'target_not_authorized',
        `The secret ${name} is bound to ${secret.domains.join(', ') || 'no domain (save it again with domains)'}; it is not filled on ${new URL(here).hostname}`,
      );
    }
    this.o.onSecret?.(secret.value);
    this.secretDocument = await this.o.tab.documentId();
    return secret.value;
  }

  /**
   * Run `act` and govern the main-frame navigation it causes (see {@link click}). A navigation the
   * document admission refused fails with that refusal (robots.txt, target policy); one the egress
   * proxy refused with `target_forbidden`.
   */
  private async navigating(what: string, navigation: boolean | undefined, act: () => Promise<void>): Promise<string> {
    const { tab, session } = this.o;
    const before = tab.url();
    let started = false;
    const stopWatching = tab.onMainFrameNavigation(() => (started = true));
    const refusalBefore = session.refusalOf(tab);
    const nav =
      navigation === false
        ? null
        : tab.waitForNavigation({ timeoutMs: this.budget(this.o.timeoutMs, what) }).then(
            (r: TabResponse | null) => ({ ok: true as const, r }),
            (err: unknown) => ({ ok: false as const, err }),
          );
    try {
      await act();
      if (navigation === undefined) await sleep(Math.min(300, Math.max(0, this.deadline - Date.now())));
    } finally {
      stopWatching();
    }
    if (!nav || (navigation === undefined && !started)) return 'no navigation';
    const outcome = await nav;
    const refusal = session.refusalOf(tab);
    if (refusal && refusal !== refusalBefore) throw refusal;
    if (!outcome.ok) {
      // A blocked navigation leaves Chromium's error page or the proxy's refusal.
      if (tab.url().startsWith('chrome-error://') || session.blockedUrls().some((b) => b === tab.url())) {
        throw targetForbidden(`Navigation after ${what} was blocked by the egress guard`);
      }
      throw outcome.err;
    }
    if (tab.url().startsWith('chrome-error://')) throw targetForbidden(`Navigation after ${what} was blocked by the egress guard`);
    await this.o.onNavigation?.(before, outcome.r);
    return `navigated to ${tab.url()}`;
  }
}
