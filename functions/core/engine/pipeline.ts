import { load, type CheerioAPI } from 'cheerio';
import { AppError } from '../errors.js';
import type { EgressGuard } from '../governance/egress-guard.js';
import type { RobotsPolicy } from '../governance/robots.js';
import { detectChallenge } from '../governance/challenge.js';
import { checkTargetPolicy, type TargetPolicy } from '../governance/target-policy.js';
import type { HostGate } from '../governance/politeness.js';
import { extractFields } from './extract.js';
import type { BrowserSession } from './fetch-browser.js';
import { fetchHttp } from './fetch-http.js';
import { needsJs } from './needs-js.js';
import { parsePage } from './parse.js';
import { documentKind, mediaType } from '../content/document.js';
import { readPdf } from '../content/pdf.js';
import { ResponseTooLargeError } from '../governance/egress-errors.js';
import { MAX_BODY_BYTES, MAX_DOCUMENT_BYTES } from './fetch-http.js';
import type { Tab, TabResponse } from '../../ports/browser.js';
import {
  DEFAULT_FORMATS,
  type ChallengeBlock,
  type EngineStats,
  type EngineUsed,
  type FetchedPage,
  type LogDecision,
  type PageResult,
  type RawLogEntry,
  type ScrapeFormat,
  type ScrapeOptions,
} from './types.js';

/** What to do when a page is a challenge/CAPTCHA wall (API.md captcha policy). */
export type ChallengePolicy = 'stop_run' | 'skip_page';

/** Dependencies of {@link createEngine}; one engine per run. */
export interface EngineDeps {
  guard: EgressGuard;
  robots: RobotsPolicy;
  /** Per-host concurrency and crawl-delay; absent = no politeness wait (single synchronous scrape). */
  gate?: HostGate;
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
  /** When the page's work began (the PDF reader's deadline counts from here). */
  startedAt?: number;
}

const now = () => new Date().toISOString();

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

  const log = (e: Omit<RawLogEntry, 'ts'>) => deps.log?.({ ts: now(), ...e });

  let closed = false;
  let closing: Promise<void> | undefined;
  const launches = new AbortController();
  const browserSession = (): Promise<BrowserSession> => {
    // After close (run ended, timed out, cancelled) a late step must not start a new browser
    // that nothing would close.
    if (closed) return Promise.reject(new AppError(503, 'browser_unavailable', 'The run has ended; its browser is closed'));
    session ??= deps.browser(launches.signal).then(
      (s) => (started = s),
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

  /** Stage: fetch with one engine, counting and logging the request whatever happens. */
  const fetchWith = async (engine: EngineUsed, ctx: PageContext): Promise<FetchedPage> => {
    const t0 = performance.now();
    counters.requests++;
    try {
      const fetchOpts = {
        timeoutMs: ctx.opts.timeout_ms,
        waitFor: ctx.opts.wait_for,
        screenshot: ctx.formats.has('screenshot'),
      };
      const page =
        engine === 'http'
          ? await fetchHttp(deps.guard, ctx.url, { ...fetchOpts, userAgent: deps.userAgent })
          : await (await browserSession()).fetch(ctx.url, fetchOpts);
      counters.bytes += page.bytes;
      return page;
    } catch (caught) {
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

  /** `auto`: does this http result need a browser? */
  const browserNeeded = (ctx: PageContext, $: CheerioAPI): string | null => {
    if (ctx.formats.has('screenshot')) return 'screenshot requested';
    if (ctx.opts.wait_for) {
      let found: boolean;
      try {
        found = $(ctx.opts.wait_for).length > 0;
      } catch {
        found = false;
      }
      if (!found) return `wait_for selector ${ctx.opts.wait_for} not in static HTML`;
    }
    const verdict = needsJs($);
    return verdict.needed ? verdict.reason : null;
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
    const deadline = (ctx.startedAt ?? Date.now()) + (ctx.opts.timeout_ms ?? 30_000);
    const doc = await readPdf(page.body ?? new Uint8Array(), { deadline });
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
        author: doc.author, published_at: null, modified_at: null, site_name: null, language: null, image: null, type: null,
        pages: doc.pages,
      };
    }
    if (ctx.opts.extract && Object.keys(ctx.opts.extract).length) result.extracted = extractFields(load(''), page.finalUrl, ctx.opts.extract);
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
   * Parse and shape in one synchronous step, so the document tree never lives in scrapePage's
   * frame across an await (the gate's release is a table call): an interpreted async function
   * keeps every local alive while suspended, and a tree that outlives a few young-generation
   * collections is promoted, which grew a 10,000-page crawl's heap. Undefined when the auto engine
   * decides the page needs the browser (ctx.autoReason says why).
   */
  const parseAndShape = (ctx: PageContext, page: FetchedPage, decideAuto: boolean): PageResult | undefined => {
    const $ = load(page.html);
    if (decideAuto) {
      ctx.autoReason = browserNeeded(ctx, $);
      if (ctx.autoReason) return undefined;
    }
    return shape(ctx, page, $);
  };

  /** Stages parse + extract, shaped by the requested formats. */
  const shape = (ctx: PageContext, page: FetchedPage, $: CheerioAPI): PageResult => {
    const f = ctx.formats;
    const parsed = parsePage($, page.finalUrl, {
      text: f.has('text'),
      markdown: f.has('markdown'),
      links: f.has('links'),
      metadata: f.has('metadata'),
      content: {
        onlyMainContent: ctx.opts.only_main_content ?? true,
        ...(ctx.opts.include_tags?.length ? { includeTags: ctx.opts.include_tags } : {}),
        ...(ctx.opts.exclude_tags?.length ? { excludeTags: ctx.opts.exclude_tags } : {}),
      },
    });
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
    if (ctx.opts.extract && Object.keys(ctx.opts.extract).length) {
      result.extracted = extractFields($, page.finalUrl, ctx.opts.extract);
    }
    if (ctx.opts.engine === 'auto') result.auto_reason = ctx.autoReason ?? null;
    return result;
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

  const scrapePage = async (url: string, opts: ScrapeOptions): Promise<PageResult> => {
    const ctx: PageContext = {
      url,
      opts,
      formats: new Set(opts.formats?.length ? opts.formats : DEFAULT_FORMATS),
      crawlDelaySeconds: null,
      startedAt: Date.now(),
    };
    const admitted = await admit(url);
    if (admitted.skip) return admitted.skip;
    const host = new URL(url).host;
    const release = deps.gate ? await deps.gate.acquire(host, admitted.crawlDelaySeconds ?? undefined) : undefined;
    try {
      let page = await fetchWith(opts.engine === 'browser' ? 'browser' : 'http', ctx);
      let blocked = govern(ctx, page);
      if (blocked) return blockedResult(ctx, page, blocked);
      if (isDocument(ctx, page)) return await documentResult(ctx, page);
      const first = parseAndShape(ctx, page, opts.engine === 'auto');
      if (first) return first;
      page = await fetchWith('browser', ctx);
      blocked = govern(ctx, page);
      if (blocked) return blockedResult(ctx, page, blocked);
      if (isDocument(ctx, page)) return await documentResult(ctx, page);
      return parseAndShape(ctx, page, false)!;
    } finally {
      await release?.();
    }
  };

  return {
    scrapePage,
    stats: () => ({ ...counters, blocked_requests: counters.blocked_requests + (started?.blockedRequests() ?? 0) }),
    stopReason: () => stop,
    browserSession,
    async navigatePage(tab, url, opts = {}) {
      const ctx: PageContext = { url, opts: { engine: 'browser' }, formats: new Set(), crawlDelaySeconds: null };
      const admitted = await admit(url);
      if (admitted.skip) return { url, final_url: url, status_code: 0, skipped: 'robots' };
      const release = deps.gate ? await deps.gate.acquire(new URL(url).host, admitted.crawlDelaySeconds ?? undefined) : undefined;
      const t0 = performance.now();
      counters.requests++;
      try {
        const session = await browserSession();
        const response = await session.navigate(tab, url, opts).catch((err: unknown) => {
          const forbidden = err instanceof AppError && err.code === 'target_forbidden';
          if (!forbidden) counters.errors++;
          log({ url, status: null, bytes: 0, timing_ms: Math.round(performance.now() - t0), engine: 'browser', decision: forbidden ? 'forbidden' : 'error', reason: reasonOf(err) });
          throw err;
        });
        return await accountTab(ctx, tab, response, t0);
      } finally {
        await release?.();
      }
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

const looksPdfType = (t: string) => /pdf/.test(t);

/** 422 `document_too_large` (API.md "Content options"). */
const tooLarge = (url: string, what: string) => new AppError(422, 'document_too_large', `${url} is too large to read: ${what}`);

function reasonOf(err: unknown): string {
  if (err instanceof AppError) return `${err.code}: ${err.message}`;
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof Error && typeof code === 'string') return `${code}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
