import { load, type CheerioAPI } from 'cheerio';
import { typedFormatsOf } from '../typed/extract-typed.js';
import { fillTypedWithModel } from '../typed/model-fill.js';
import { AppError } from '../errors.js';
import type { EgressGuard } from '../governance/egress-guard.js';
import type { RobotsPolicy } from '../governance/robots.js';
import { detectChallenge } from '../governance/challenge.js';
import { checkTargetPolicy, type TargetPolicy } from '../governance/target-policy.js';
import type { HostGate } from '../governance/politeness.js';
import { extractFields } from './extract.js';
import type { BrowserSession } from './fetch-browser.js';
import { fetchHttp } from './fetch-http.js';
import { followRedirects } from './follow-redirects.js';
import { hasTenantSelectors, shapePage, type ShapeSpec, type ShapedParts } from './shape-page.js';
import { runBudgeted } from '../limits/budget-pool.js';
import { readPdf } from '../content/pdf.js';
import { documentKind, mediaType } from '../content/document.js';
import { ResponseTooLargeError } from '../governance/egress-errors.js';
import { MAX_BODY_BYTES, MAX_DOCUMENT_BYTES } from './fetch-http.js';
import type { Tab, TabResponse } from '../../ports/browser.js';
import { PageActions, type ResolvedSecret } from './page-actions.js';
import { runScrapeActions } from './scrape-actions.js';
import { SecretRedactor } from '../scrapers/secret-redactor.js';
import type { JsonExtractor } from '../extraction/types.js';
import { MODEL_NOT_CONFIGURED_MESSAGE } from '../extraction/model-not-configured.js';
import {
  DEFAULT_FORMATS,
  type ChallengeBlock,
  type EngineStats,
  type EngineUsed,
  type FetchedPage,
  type LogDecision,
  type PageResult,
  type RawLogEntry,
  type ResourceRead,
  type ResourceResponse,
  type ResourceResult,
  type ScrapeFormat,
  type ScrapeOptions,
} from './types.js';

/** What to do when a page is a challenge/CAPTCHA wall (API.md captcha policy). */
export type ChallengePolicy = 'stop_run' | 'skip_page';

/** Dependencies of {@link createEngine}; one engine per run. */
export interface EngineDeps {
  guard: EgressGuard;
  robots: RobotsPolicy;
  /**
   * Per-host concurrency and crawl-delay, asked for every request's own host (redirect hops
   * included); absent = no politeness wait (single synchronous scrape).
   */
  gate?: Pick<HostGate, 'acquire'>;
  /**
   * Starts the run's one browser; called on the first page that needs it (again only after a
   * failed launch). `signal` aborts when the engine is closed: a launch still in progress is
   * given up at once instead of running to its timeout with nobody waiting for it.
   */
  browser: (signal: AbortSignal) => Promise<BrowserSession>;
  policy: TargetPolicy;
  challengePolicy: ChallengePolicy;
  userAgent: string;
  /** Raw scrape log sink: one entry per request (and per robots skip). */
  log?: (entry: RawLogEntry) => void;
  /** Called once per challenge page, so the caller can record a captcha encounter. */
  onChallenge?: (encounter: ChallengeBlock & { url: string }) => void;
  /** Model extraction for the `json` format (tenant quota, audit and metering wired in); absent = no model. */
  extractJson?: JsonExtractor;
  /** A tenant secret by name, for `write` actions that name one (absent: such actions fail). */
  resolveSecret?: (name: string) => Promise<ResolvedSecret>;
  /** Whose pages these are (the tenant): budgeted work takes fair turns between owners (limits/budget-pool.ts). */
  owner?: string;
  /**
   * The task's or run's one redactor (scrapers/secret-redactor.ts): every secret a `write` action
   * types is added to it, and the engine masks with it everything it hands out (results, the
   * model's input and answer, raw log entries, errors). The caller masks its own writes with the
   * same one (items, run errors, webhooks, change snapshots). Default: one of the engine's own.
   */
  redactor?: SecretRedactor;
}

/** A run's engine: the page pipeline plus its counters and its (lazy) browser. */
export interface Engine {
  /** fetch -> govern -> parse -> extract for one URL. Throws AppError for forbidden targets. */
  scrapePage(url: string, opts: ScrapeOptions): Promise<PageResult>;
  /** Counters so far (browser-side blocked requests included). */
  stats(): EngineStats;
  /** Set when `challengePolicy` is `stop_run` and a challenge was met: the run must stop as `blocked`. */
  stopReason(): (ChallengeBlock & { url: string }) | null;
  /** The run's browser session (started on first use); runbooks drive pages on it. */
  browserSession(): Promise<BrowserSession>;
  /** Whose pages these are ({@link EngineDeps.owner}): a runbook's budgeted work takes its turns as theirs. */
  readonly owner?: string;
  /** The redactor every secret typed on this engine's pages goes to ({@link EngineDeps.redactor}). */
  readonly redactor: SecretRedactor;
  /**
   * Navigate a tab the caller drives (runbooks) under the same governance as {@link scrapePage}:
   * target policy, egress, robots, politeness, then the browser fetch, then challenge detection.
   * Counted and logged like any page request.
   */
  navigatePage(tab: Tab, url: string, opts?: { timeoutMs?: number; waitFor?: string }): Promise<NavigationResult>;
  /**
   * Account for a navigation the tab made by itself (a click, a form submit): target policy on
   * the new URL, counters, log, challenge detection.
   */
  observeNavigation(tab: Tab, requestedUrl: string, response: TabResponse | null): Promise<NavigationResult>;
  /**
   * A governed GET of a resource that is not a page (a sitemap): target policy, egress guard,
   * robots.txt and politeness as for {@link scrapePage}, counted in the stats and logged as one
   * request. `read` consumes the streamed body and bounds its own work; the body is cancelled
   * when it returns. Resolves `{ skipped: 'robots' }` when robots.txt disallows the URL.
   */
  fetchResource<T>(url: string, opts: { timeoutMs?: number; accept?: string }, read: (res: ResourceResponse) => Promise<ResourceRead<T>>): Promise<ResourceResult<T>>;
  /** The `Sitemap:` URLs of the robots.txt governing `url` (the robots check's cached fetch). */
  robotsSitemaps(url: string): Promise<string[]>;
  /** A raw-log line about `url` that is not a request of its own (a sitemap skipped, and why). */
  note(url: string, reason: string): void;
  /** Close the browser (if one was started). */
  close(): Promise<void>;
}

/** Outcome of a governed tab navigation (runbooks). */
export interface NavigationResult {
  url: string;
  final_url: string;
  /** 0 when nothing was fetched (robots). */
  status_code: number;
  skipped?: 'robots';
  blocked?: ChallengeBlock;
}

/** Per-page working state passed from stage to stage. */
interface PageContext {
  url: string;
  opts: ScrapeOptions;
  formats: Set<ScrapeFormat>;
  fetched?: FetchedPage;
  $?: CheerioAPI;
  autoReason?: string | null;
  crawlDelaySeconds: number | null;
  /** Format `json`: the page's markdown, kept by shape for the extraction stage. */
  modelInput?: string;
  /** When the page's work began (the PDF reader's deadline counts from here). */
  startedAt?: number;
  /** What the page actions produced. */
  actionsOut?: { screenshots: string[] };
}

const now = () => new Date().toISOString();

/** Typed formats with `typed_options.model`: the model fills what the page left empty. */
const wantsTypedModel = (ctx: { opts: ScrapeOptions; formats: Set<ScrapeFormat> }): boolean => Boolean(ctx.opts.typed?.model) && typedFormatsOf(ctx.formats).length > 0;

/**
 * A redirect hop that robots.txt of its own host disallows: the page ends as a robots skip
 * (counted in `robots_skipped`, logged with the hop's URL), whichever engine followed it.
 */
class HopSkipped extends Error {
  constructor(readonly hopUrl: string, readonly reason: string) {
    super(`robots.txt disallows the redirect target ${hopUrl}: ${reason}`);
    this.name = 'HopSkipped';
  }
}

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
};

/**
 * Build a run's engine (DESIGN.md habit 10: a pipeline, not an inheritance tree). Both engines
 * share every stage but fetch:
 *
 *   admit (target policy, egress check, robots) -> fetch (http | browser) -> govern (challenge)
 *   -> parse -> extract
 *
 * `auto` runs the http fetch and govern first and only re-fetches in the browser when the page
 * needs JavaScript (or a browser-only feature was asked for). A challenge is never retried in
 * the other engine.
 */
export function createEngine(deps: EngineDeps): Engine {
  const counters: EngineStats = { requests: 0, bytes: 0, blocked_requests: 0, robots_skipped: 0, challenges: 0, errors: 0 };
  let session: Promise<BrowserSession> | undefined;
  let started: BrowserSession | undefined;
  let stop: (ChallengeBlock & { url: string }) | null = null;
  const checkedOrigins = new Set<string>();

  // One redactor for everything this engine hands out (issue 37 finding 3): the secrets typed by
  // any page's actions are masked in every later result, log line, model call and error.
  const redact = deps.redactor ?? new SecretRedactor();
  const log = (e: Omit<RawLogEntry, 'ts'>) => deps.log?.(redact.deep({ ts: now(), ...e }));
  /** An error as it leaves the engine: message and details masked (the error is changed in place). */
  const masked = (err: unknown): unknown => {
    if (!redact.active || !(err instanceof Error)) return err;
    err.message = redact.text(err.message);
    if (err instanceof AppError && err.details !== undefined) (err as { details: unknown }).details = redact.deep(err.details);
    return err;
  };

  let closed = false;
  let closing: Promise<void> | undefined;
  const launches = new AbortController();
  const browserSession = (): Promise<BrowserSession> => {
    // After close (run ended, timed out, cancelled) a late step must not start a new browser
    // that nothing would close.
    if (closed) return Promise.reject(new AppError(503, 'browser_unavailable', 'The run has ended; its browser is closed'));
    session ??= deps.browser(launches.signal).then(
      (s) => {
        s.admitDocuments?.(browserDocument);
        // Everything else the browser loads (subresources, WebSockets) stays inside the target policy too.
        s.restrictHosts?.((hostname) => checkTargetPolicy(deps.policy, `http://${hostname.includes(':') ? `[${hostname}]` : hostname}/`));
        return (started = s);
      },
      (err) => {
        session = undefined; // a failed launch may be retried by the next page
        throw err;
      },
    );
    return session;
  };

  /** Stage: target policy, egress guard, robots.txt. Null = go on; a result = skip. */
  const admit = async (url: string): Promise<{ skip: PageResult | null; crawlDelaySeconds: number | null }> => {
    try {
      checkTargetPolicy(deps.policy, url);
      // Early, clear refusal before robots (whose fetch would otherwise fail first). Once per
      // origin is enough: every request is re-checked by guard.fetch / the proxy at connect time.
      // Keyed on the authority as written, so credentials or odd IP spellings are checked afresh.
      const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? url;
      if (!checkedOrigins.has(authority)) {
        await deps.guard.checkUrl(url);
        checkedOrigins.add(authority);
      }
    } catch (err) {
      if (err instanceof AppError && err.code === 'target_forbidden') counters.blocked_requests++;
      log({ url, status: null, bytes: 0, timing_ms: 0, engine: null, decision: 'forbidden', reason: reasonOf(err) });
      throw err;
    }
    const r = await deps.robots.check(url);
    if (!r.allowed) {
      counters.robots_skipped++;
      log({ url, status: null, bytes: 0, timing_ms: 0, engine: null, decision: 'robots_skipped', reason: r.reason });
      return {
        skip: { url, final_url: url, status_code: 0, engine_used: null, fetched_at: now(), skipped: 'robots' },
        crawlDelaySeconds: r.crawlDelaySeconds,
      };
    }
    return { skip: null, crawlDelaySeconds: r.crawlDelaySeconds };
  };

  /** Errors the hop admission already counted and logged (fetchWith must not count them again). */
  const accounted = new WeakSet<object>();

  /**
   * Admission of a redirect hop (issue 19 finding 1), for both engines: the hop's URL passes the
   * target policy, the egress check and robots.txt of its own host, like the URL asked for. A
   * refusal is counted and logged with the hop's URL. Resolves to the hop host's crawl-delay.
   */
  const admitHop = async (url: string, from: string, engine: EngineUsed, kind: 'redirect' | 'frame' | 'subresource redirect' = 'redirect'): Promise<number | null> => {
    const refuse = (err: unknown): never => {
      if (err && typeof err === 'object') accounted.add(err);
      throw err;
    };
    try {
      checkTargetPolicy(deps.policy, url);
      await deps.guard.checkUrl(url);
    } catch (err) {
      if (err instanceof AppError && err.code === 'target_forbidden') counters.blocked_requests++;
      log({ url, status: null, bytes: 0, timing_ms: 0, engine, decision: 'forbidden', reason: `${kind} from ${from}: ${reasonOf(err)}` });
      refuse(err);
    }
    const r = await deps.robots.check(url);
    if (!r.allowed) {
      // A page counts once: a redirect hop ends the page as a skip; a refused frame only stays empty.
      if (kind === 'redirect') counters.robots_skipped++;
      log({ url, status: null, bytes: 0, timing_ms: 0, engine, decision: 'robots_skipped', reason: `${kind} from ${from}: ${r.reason}` });
      refuse(new HopSkipped(url, r.reason));
    }
    return r.crawlDelaySeconds;
  };

  /** The http engine's hops: hop 0 was admitted by {@link admit}; every hop waits for its own host's gate. */
  const httpHops = (pageUrl: string, firstDelay: number | null) => async (url: string, hop: number) => {
    const delay = hop === 0 ? firstDelay : await admitHop(url, pageUrl, 'http');
    return deps.gate?.acquire(new URL(url).host, delay ?? undefined);
  };

  /**
   * The browser's document requests (see BrowserSession.admitDocuments): the page's own URL was
   * admitted by {@link admit} and holds its host's slot; any other document (a redirect hop, a
   * script navigation, a frame) is admitted as a hop and, on another host, waits for that host's
   * gate before it starts (the slot is given back as it starts: the page's own slot bounds the
   * page, and a frame waiting on its parent's host must not wait for the parent's slot).
   */
  const browserDocument = async (url: string, { pageUrl, mainFrame, subresource }: { pageUrl: string | null; mainFrame: boolean; subresource?: boolean }): Promise<void> => {
    if (mainFrame && pageUrl !== null && sameUrl(url, pageUrl)) return;
    if (!/^https?:/i.test(url)) return; // about:blank, data: documents never reach the network
    const delay = await admitHop(url, pageUrl ?? url, 'browser', mainFrame ? 'redirect' : subresource ? 'subresource redirect' : 'frame');
    const host = new URL(url).host;
    if (deps.gate && (pageUrl === null || new URL(pageUrl).host !== host)) await (await deps.gate.acquire(host, delay ?? undefined))();
  };

  /** Hold `url`'s host gate slot around a browser request (its redirect hops: see browserDocument). */
  const withHostSlot = async <T>(url: string, crawlDelaySeconds: number | null, fn: () => Promise<T>): Promise<T> => {
    const release = deps.gate ? await deps.gate.acquire(new URL(url).host, crawlDelaySeconds ?? undefined) : undefined;
    try {
      return await fn();
    } finally {
      await release?.();
    }
  };

  /**
   * The scrape's `actions`, run on the browser tab after the page settled and before capture, by
   * the interpreter runbook steps use (page-actions.ts). A navigation they cause is admitted like
   * a redirect hop (the session's document admission); consent overlays are hidden before each
   * screenshot. The page is not captured while it still shows a field a secret was typed into.
   */
  const interaction = (ctx: PageContext, session: BrowserSession): { loadAssets?: boolean; interact?: (tab: Tab) => Promise<void> } => {
    const actions = ctx.opts.actions;
    if (!actions?.length) return {};
    const timeoutMs = ctx.opts.timeout_ms ?? 30_000;
    return {
      loadAssets: actions.some((a) => a.type === 'screenshot'),
      interact: async (tab) => {
        // An action waits at most what is left of the page's own time, so its failure is answered
        // as action_failed rather than the whole task running out of time.
        const left = (ctx.startedAt ?? Date.now()) + timeoutMs - Date.now();
        const pa = new PageActions({
          tab,
          session,
          timeoutMs: Math.max(1_000, left - 500),
          policy: deps.policy,
          resolveSecret: deps.resolveSecret,
          onSecret: (v) => redact.add(v),
          beforeScreenshot: async () => void (await session.hideOverlays(tab)),
        });
        ctx.actionsOut = await runScrapeActions(actions, pa, Math.max(1_000, left - 500));
        await pa.refuseOnSecretPage('capturing the page').catch((err: Error) => {
          throw new AppError(422, 'action_failed', `The page was not captured: ${err.message}`, [{ path: `actions.${actions.length - 1}`, message: err.message }]);
        });
      },
    };
  };

  /** Stage: fetch with one engine, counting and logging the request whatever happens. */
  const fetchWith = async (engine: EngineUsed, ctx: PageContext): Promise<FetchedPage> => {
    const t0 = performance.now();
    counters.requests++;
    try {
      const fetchOpts = {
        timeoutMs: ctx.opts.timeout_ms,
        waitFor: ctx.opts.wait_for,
        screenshot: ctx.formats.has('screenshot'),
        policy: deps.policy,
      };
      const page =
        engine === 'http'
          ? await fetchHttp(deps.guard, ctx.url, { ...fetchOpts, userAgent: deps.userAgent, admitHop: httpHops(ctx.url, ctx.crawlDelaySeconds) })
          : await withHostSlot(ctx.url, ctx.crawlDelaySeconds, async () => {
              const session = await browserSession();
              return session.fetch(ctx.url, { ...fetchOpts, ...interaction(ctx, session) });
            });
      counters.bytes += page.bytes;
      return page;
    } catch (caught) {
      if (caught && typeof caught === 'object' && accounted.has(caught)) throw caught;
      const err = caught instanceof ResponseTooLargeError ? tooLarge(ctx.url, `larger than ${MAX_BODY_BYTES / 1024 / 1024} MB`) : caught;
      const forbidden = err instanceof AppError && err.code === 'target_forbidden';
      // Browser refusals are counted by the session's proxy; http ones only here.
      if (forbidden && engine === 'http') counters.blocked_requests++;
      if (!forbidden) counters.errors++;
      log({
        url: ctx.url,
        status: null,
        bytes: 0,
        timing_ms: Math.round(performance.now() - t0),
        engine,
        decision: forbidden ? 'forbidden' : 'error',
        reason: reasonOf(err),
      });
      throw err;
    }
  };

  /** Stage: challenge detection on a fetched page; logs the request with its decision. */
  const govern = (ctx: PageContext, page: FetchedPage): ChallengeBlock | null => {
    if (page.finalUrl !== ctx.url) {
      try {
        // A redirect may leave the tenant's allowlist even when the egress guard is happy with it.
        checkTargetPolicy(deps.policy, page.finalUrl);
      } catch (err) {
        log({ url: ctx.url, final_url: page.finalUrl, status: page.status, bytes: page.bytes, timing_ms: page.timingMs, engine: page.engine, decision: 'forbidden', reason: reasonOf(err) });
        throw err;
      }
    }
    const challenge = detectChallenge({ status: page.status, headers: page.headers, html: page.html });
    const decision: LogDecision = challenge ? 'blocked' : 'fetched';
    log({
      url: ctx.url,
      final_url: page.finalUrl,
      status: page.status,
      bytes: page.bytes,
      timing_ms: page.timingMs,
      engine: page.engine,
      decision,
      ...(challenge ? { reason: `${challenge.kind}: ${challenge.reason}` } : {}),
    });
    if (!challenge) return null;
    counters.challenges++;
    const encounter = { kind: challenge.kind, reason: challenge.reason, url: page.finalUrl };
    deps.onChallenge?.(encounter);
    if (deps.challengePolicy === 'stop_run') stop ??= encounter;
    return { kind: challenge.kind, reason: challenge.reason };
  };

  const blockedResult = (ctx: PageContext, page: FetchedPage, blocked: ChallengeBlock): PageResult => ({
    url: ctx.url,
    final_url: page.finalUrl,
    status_code: page.status,
    engine_used: page.engine,
    fetched_at: now(),
    content_type: mediaType(page.headers.get('content-type')),
    blocked,
  });

  /**
   * Stage for bodies that are not HTML or text (content/document.ts): a PDF is read into
   * markdown, text and metadata; any other binary type is refused with 422.
   */
  const readDocument = async (ctx: PageContext, page: FetchedPage): Promise<PageResult> => {
    const type = mediaType(page.headers.get('content-type'));
    if (documentKind(page.headers.get('content-type'), page.body) === 'unsupported') {
      throw new AppError(422, 'unsupported_content_type', `${ctx.url} answered with ${type}; Gleaner reads HTML, text and PDF documents`);
    }
    // Read on a budget thread: stopped (not just given up on) at the page's deadline or past the
    // thread's heap bound, 422 `document_too_complex` either way (issue 27).
    const deadline = (ctx.startedAt ?? Date.now()) + (ctx.opts.timeout_ms ?? 30_000);
    const bytes = new Uint8Array(page.body ?? new Uint8Array());
    const doc = await runBudgeted('document', 'pdf.read', { bytes }, { deadlineMs: Math.max(1_000, deadline - Date.now()), transfer: [bytes.buffer], owner: deps.owner, inline: () => readPdf(bytes) });
    const f = ctx.formats;
    const result: PageResult = {
      url: ctx.url,
      final_url: page.finalUrl,
      status_code: page.status,
      engine_used: page.engine,
      fetched_at: now(),
      content_type: looksPdfType(type) ? type : 'application/pdf',
      title: doc.title ?? '',
    };
    if (f.has('markdown')) result.markdown = doc.markdown;
    // A PDF has no HTML; the bytes are not returned as a string.
    if (f.has('html')) result.html = '';
    if (f.has('text')) result.text = doc.text;
    if (f.has('links')) result.links = [];
    if (f.has('metadata')) {
      result.metadata = {
        title: doc.title, description: null, canonical: null, lang: null, og: {},
        author: doc.author, published_at: null, modified_at: null, site_name: null, language: null, image: null, type: null, page_kind: null,
        pages: doc.pages,
      };
    }
    if (ctx.opts.extract && Object.keys(ctx.opts.extract).length) result.extracted = extractFields(load(''), page.finalUrl, ctx.opts.extract);
    // A PDF is none of the typed kinds: each asked-for typed format is null.
    for (const t of typedFormatsOf(f)) result[t] = null;
    if (ctx.opts.engine === 'auto') result.auto_reason = null;
    return result;
  };

  /** Stage: which reader the fetched body needs; refuses a text body over the HTML limit. */
  const isDocument = (ctx: PageContext, page: FetchedPage): boolean => {
    if (documentKind(page.headers.get('content-type'), page.body) !== 'html') return true;
    if (page.engine === 'http' && page.bytes > MAX_DOCUMENT_BYTES) {
      throw tooLarge(ctx.url, `${Math.ceil(page.bytes / 1024 / 1024)} MB of ${mediaType(page.headers.get('content-type'))}; HTML and text documents are read up to ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB`);
    }
    return false;
  };

  /**
   * Parse and shape: one synchronous step (shape-page.ts), so the document tree never lives in
   * scrapePage's frame across an await (the gate's release is a table call): an interpreted async
   * function keeps every local alive while suspended, and a tree that outlives a few
   * young-generation collections is promoted, which grew a 10,000-page crawl's heap. A request
   * carrying the tenant's own selectors (wait_for, include_tags, exclude_tags, extract) is shaped
   * on a budget thread instead, stopped at the page's deadline (422 `selector_too_complex`).
   * Undefined when the auto engine decides the page needs the browser (ctx.autoReason says why).
   */
  const parseAndShape = async (ctx: PageContext, page: FetchedPage, decideAuto: boolean): Promise<PageResult | undefined> => {
    const spec: ShapeSpec = {
      url: page.finalUrl,
      formats: [...ctx.formats],
      decideAuto,
      // The browser removed overlays from the live page; without layout, only what reads and is named as consent.
      staticOverlays: page.engine === 'http',
      ...(ctx.opts.wait_for ? { waitFor: ctx.opts.wait_for } : {}),
      ...(ctx.opts.only_main_content !== undefined ? { onlyMainContent: ctx.opts.only_main_content } : {}),
      ...(ctx.opts.include_tags?.length ? { includeTags: ctx.opts.include_tags } : {}),
      ...(ctx.opts.exclude_tags?.length ? { excludeTags: ctx.opts.exclude_tags } : {}),
      ...(ctx.opts.extract && Object.keys(ctx.opts.extract).length ? { extract: ctx.opts.extract } : {}),
      ...(wantsTypedModel(ctx) ? { modelMarkdown: true } : {}),
    };
    const deadlineMs = (ctx.startedAt ?? Date.now()) + (ctx.opts.timeout_ms ?? 30_000) - Date.now();
    const parts = hasTenantSelectors(spec)
      ? await runBudgeted('selector', 'page.shape', { html: page.html, spec }, { deadlineMs: Math.max(1_000, deadlineMs), owner: deps.owner, inline: () => shapePage(page.html, spec) })
      : shapePage(page.html, spec);
    if (decideAuto) {
      ctx.autoReason = parts.autoReason;
      if (parts.autoReason) return undefined;
    }
    return assemble(ctx, page, parts);
  };

  /** Stages parse + extract, shaped by the requested formats. */
  const assemble = (ctx: PageContext, page: FetchedPage, parts: ShapedParts): PageResult => {
    const f = ctx.formats;
    const parsed = parts.parsed!;
    // The model reads the markdown the formats above produced: the same text the policy let through.
    // Masked: the provider never sees a secret the actions typed (the page may show it).
    if (f.has('json') || wantsTypedModel(ctx)) ctx.modelInput = redact.text(parsed.markdown ?? '');
    const result: PageResult = {
      url: ctx.url,
      final_url: page.finalUrl,
      status_code: page.status,
      engine_used: page.engine,
      fetched_at: now(),
      title: parsed.title,
    };
    if (f.has('markdown')) result.markdown = parsed.markdown;
    if (f.has('html')) result.html = page.html;
    if (f.has('text')) result.text = parsed.text;
    if (f.has('links')) result.links = parsed.links;
    if (f.has('metadata')) result.metadata = parsed.metadata;
    result.content_type = mediaType(page.headers.get('content-type'));
    if (f.has('screenshot') && page.screenshot) result.screenshot = page.screenshot;
    if (parts.extracted) result.extracted = parts.extracted;
    if (parts.typed) Object.assign(result, parts.typed);
    if (ctx.opts.engine === 'auto') result.auto_reason = ctx.autoReason ?? null;
    if (ctx.actionsOut) result.actions = ctx.actionsOut;
    return redact.deep(result);
  };

  /**
   * A document's result. The browser shows a PDF in its viewer and hands back the viewer's HTML,
   * not the file: the document is then fetched again by the http engine (same guard, same limits,
   * counted, logged and checked for a challenge as its own request).
   */
  const documentResult = async (ctx: PageContext, page: FetchedPage): Promise<PageResult> => {
    if (!page.body && documentKind(page.headers.get('content-type'), page.body) === 'pdf') {
      page = await fetchWith('http', ctx);
      const blocked = govern(ctx, page);
      if (blocked) return blockedResult(ctx, page, blocked);
    }
    return readDocument(ctx, page);
  };

  /** Stages govern for a tab the caller drives: counters, log, target policy, challenge. */
  const accountTab = async (ctx: PageContext, tab: Tab, response: TabResponse | null, t0: number): Promise<NavigationResult> => {
    const html = await tab.content();
    const headers = new Headers();
    for (const [k, v] of Object.entries(response?.headers ?? {})) for (const line of v.split('\n')) headers.append(k, line);
    const fetched: FetchedPage = {
      url: ctx.url,
      finalUrl: tab.url(),
      status: response?.status ?? 0,
      headers,
      html,
      bytes: Buffer.byteLength(html),
      timingMs: Math.round(performance.now() - t0),
      engine: 'browser',
    };
    counters.bytes += fetched.bytes;
    const blocked = govern(ctx, fetched);
    return {
      url: ctx.url,
      final_url: fetched.finalUrl,
      status_code: fetched.status,
      ...(blocked ? { blocked } : {}),
    };
  };

  /**
   * Stage: model extraction (format `json`), after the host's politeness slot is released: a model
   * call takes seconds and holds no connection to the site.
   */
  const extractStage = async (ctx: PageContext, page: PageResult): Promise<PageResult> => {
    const markdown = ctx.modelInput ?? '';
    ctx.modelInput = undefined;
    if (wantsTypedModel(ctx)) {
      const extractor: JsonExtractor = deps.extractJson ?? (async () => ({ json_error: { code: 'model_not_configured', message: MODEL_NOT_CONFIGURED_MESSAGE } }));
      page = { ...page, ...(await fillTypedWithModel(page, { url: page.final_url, markdown }, extractor)) };
    }
    if (!ctx.formats.has('json')) return page;
    if (!ctx.opts.json) return { ...page, json_error: { code: 'invalid_request', message: 'The json format needs json_options with a JSON Schema' } };
    if (!deps.extractJson) return { ...page, json_error: { code: 'model_not_configured', message: MODEL_NOT_CONFIGURED_MESSAGE } };
    return { ...page, ...(await deps.extractJson({ url: page.final_url, markdown, schema: ctx.opts.json.schema, prompt: ctx.opts.json.prompt })) };
  };

  const scrapePage = async (url: string, opts: ScrapeOptions): Promise<PageResult> => {
    const ctx: PageContext = {
      url,
      opts,
      formats: new Set(opts.formats?.length ? opts.formats : DEFAULT_FORMATS),
      crawlDelaySeconds: null,
      startedAt: Date.now(),
    };
    try {
      const page = await fetchAndShape(ctx);
      // Masked once more as a whole: a robots skip's hop URL, the model's answer (which may
      // repeat what it read) and anything else a secret reached since it was typed.
      return redact.deep(ctx.modelInput === undefined ? page : await extractStage(ctx, page));
    } catch (err) {
      throw masked(err);
    }
  };

  const fetchAndShape = async (ctx: PageContext): Promise<PageResult> => {
    const { url, opts } = ctx;
    const admitted = await admit(url);
    if (admitted.skip) return admitted.skip;
    ctx.crawlDelaySeconds = admitted.crawlDelaySeconds;
    // Each request waits for its own host's gate: the http engine per hop (fetchHttp), the
    // browser for the page's host around its fetch and per document on other hosts.
    try {
      // Actions need the browser: `auto` then means `browser`.
      const acting = Boolean(opts.actions?.length);
      if (acting && opts.engine === 'auto') ctx.autoReason = 'actions requested';
      let page = await fetchWith(opts.engine === 'browser' || acting ? 'browser' : 'http', ctx);
      let blocked = govern(ctx, page);
      if (blocked) return blockedResult(ctx, page, blocked);
      if (page.downloaded) {
        page = await fetchWith('http', ctx);
        blocked = govern(ctx, page);
        if (blocked) return blockedResult(ctx, page, blocked);
      }
      if (isDocument(ctx, page)) return await documentResult(ctx, page);
      const first = await parseAndShape(ctx, page, opts.engine === 'auto' && !acting);
      if (first) return first;
      page = await fetchWith('browser', ctx);
      blocked = govern(ctx, page);
      if (blocked) return blockedResult(ctx, page, blocked);
      if (page.downloaded) {
        // The browser did not render it (see FetchedPage.downloaded): the document is read over http.
        page = await fetchWith('http', ctx);
        blocked = govern(ctx, page);
        if (blocked) return blockedResult(ctx, page, blocked);
      }
      if (isDocument(ctx, page)) return await documentResult(ctx, page);
      return (await parseAndShape(ctx, page, false))!;
    } catch (err) {
      if (err instanceof HopSkipped) return { url, final_url: err.hopUrl, status_code: 0, engine_used: null, fetched_at: now(), skipped: 'robots' };
      throw err;
    }
  };

  const fetchResource: Engine['fetchResource'] = async (url, opts, read) => {
    const admitted = await admit(url);
    if (admitted.skip) return { skipped: 'robots' };
    const t0 = performance.now();
    counters.requests++;
    let body: ReadableStream<Uint8Array> | null = null;
    let release: (() => Promise<void>) | undefined;
    try {
      // Every hop passes target policy, robots.txt and its host's gate, as a page's hops do.
      const timeoutMs = opts.timeoutMs ?? 30_000;
      const chain = await followRedirects(
        url,
        { maxRedirects: 10, timeoutMs },
        httpHops(url, admitted.crawlDelaySeconds),
        (hop, left) => deps.guard.fetchResponse(hop, { headers: { 'user-agent': deps.userAgent, accept: opts.accept ?? '*/*' }, maxRedirects: 0, timeoutMs: left }),
        async (r) => void (await r.body?.cancel().catch(() => undefined)),
      );
      release = chain.release;
      const res = chain.res;
      body = res.body;
      const finalUrl = chain.url;
      const out = await read({ url, finalUrl, status: res.status, headers: res.headers, body: (body ?? emptyBody()) as unknown as AsyncIterable<Uint8Array> });
      counters.bytes += out.bytes;
      log({ url, final_url: finalUrl, status: res.status, bytes: out.bytes, timing_ms: Math.round(performance.now() - t0), engine: 'http', decision: 'fetched', ...(out.note ? { reason: out.note } : {}) });
      return { status: res.status, finalUrl, value: out.value };
    } catch (err) {
      if (err instanceof HopSkipped) return { skipped: 'robots' }; // counted and logged at the hop
      if (err && typeof err === 'object' && accounted.has(err)) throw err;
      const forbidden = err instanceof AppError && err.code === 'target_forbidden';
      if (forbidden) counters.blocked_requests++;
      else counters.errors++;
      log({ url, status: null, bytes: 0, timing_ms: Math.round(performance.now() - t0), engine: 'http', decision: forbidden ? 'forbidden' : 'error', reason: reasonOf(err) });
      throw err;
    } finally {
      await body?.cancel().catch(() => undefined);
      await release?.();
    }
  };

  return {
    scrapePage,
    fetchResource,
    robotsSitemaps: (url) => deps.robots.sitemaps(url),
    note: (url, reason) => log({ url, status: null, bytes: 0, timing_ms: 0, engine: null, decision: 'error', reason }),
    stats: () => ({ ...counters, blocked_requests: counters.blocked_requests + (started?.blockedRequests() ?? 0) }),
    stopReason: () => stop,
    browserSession,
    owner: deps.owner,
    redactor: redact,
    async navigatePage(tab, url, opts = {}) {
      const ctx: PageContext = { url, opts: { engine: 'browser' }, formats: new Set(), crawlDelaySeconds: null };
      const admitted = await admit(url);
      if (admitted.skip) return { url, final_url: url, status_code: 0, skipped: 'robots' };
      return withHostSlot(url, admitted.crawlDelaySeconds, async () => {
        const t0 = performance.now();
        counters.requests++;
        try {
          const session = await browserSession();
          const response = await session.navigate(tab, url, opts).catch((err: unknown) => {
            if (err && typeof err === 'object' && accounted.has(err)) throw err;
            const forbidden = err instanceof AppError && err.code === 'target_forbidden';
            if (!forbidden) counters.errors++;
            log({ url, status: null, bytes: 0, timing_ms: Math.round(performance.now() - t0), engine: 'browser', decision: forbidden ? 'forbidden' : 'error', reason: reasonOf(err) });
            throw err;
          });
          return await accountTab(ctx, tab, response, t0);
        } catch (err) {
          if (err instanceof HopSkipped) return { url, final_url: err.hopUrl, status_code: 0, skipped: 'robots' };
          throw err;
        }
      });
    },
    async observeNavigation(tab, requestedUrl, response) {
      counters.requests++;
      const ctx: PageContext = { url: requestedUrl, opts: { engine: 'browser' }, formats: new Set(), crawlDelaySeconds: null };
      return accountTab(ctx, tab, response, performance.now());
    },
    close() {
      // Every caller (an abort, the run's own finally) awaits the same closing, so nobody goes on
      // before the browser is really gone.
      closed = true;
      launches.abort();
      const s = session;
      session = undefined;
      closing ??= (async () => {
        if (s) await (await s.catch(() => undefined))?.close();
      })();
      return closing;
    },
  };
}

const emptyBody = (): AsyncIterable<Uint8Array> => ({ async *[Symbol.asyncIterator]() {} });
const looksPdfType = (t: string) => /pdf/.test(t);

/** 422 `document_too_large` (API.md "Content options"). */
const tooLarge = (url: string, what: string) => new AppError(422, 'document_too_large', `${url} is too large to read: ${what}`);

function reasonOf(err: unknown): string {
  if (err instanceof AppError) return `${err.code}: ${err.message}`;
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof Error && typeof code === 'string') return `${code}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
