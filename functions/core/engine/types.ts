import type { FieldSpec, FieldValue } from './field-spec.js';
import type { PageMetadata } from './parse.js';
import type { JsonError, JsonUsage } from '../extraction/types.js';
import type { PageAction } from '../scrapers/page-actions-schema.js';
import type { Tab } from '../../ports/browser.js';
import type { TypedData } from '../typed/types.js';

/** Engine a caller asks for. `auto` = http first, browser only when the page needs JavaScript. */
export type EngineChoice = 'auto' | 'http' | 'browser';
/** Engine that actually produced a page. */
export type EngineUsed = 'http' | 'browser';

/** Output formats of `POST /v1/scrape` (API.md). `json` = model extraction with `json_options`. */
export const SCRAPE_FORMATS = ['markdown', 'html', 'text', 'links', 'metadata', 'screenshot', 'json', 'changes', 'product', 'product_list', 'article', 'job_posting'] as const;
export type ScrapeFormat = (typeof SCRAPE_FORMATS)[number];
/** Formats when the caller names none. */
export const DEFAULT_FORMATS: ScrapeFormat[] = ['markdown', 'text', 'links', 'metadata'];

/** What a fetcher hands to the rest of the pipeline. Both engines produce exactly this. */
export interface FetchedPage {
  /** The URL asked for. */
  url: string;
  /** After redirects (and, in a browser, client-side navigation). */
  finalUrl: string;
  status: number;
  headers: Headers;
  html: string;
  /** The body as received, when it is not text (a PDF, an image…); `html` is then ''. */
  body?: Uint8Array;
  /** Bytes of the main document as received. */
  bytes: number;
  timingMs: number;
  engine: EngineUsed;
  /** base64 PNG, browser only, when asked for. */
  screenshot?: string;
  /**
   * Browser only: the browser gave the navigation up as a download (a PDF on the Lambda binary,
   * an attachment): nothing was rendered, `html` is ''; the pipeline reads it over http.
   */
  downloaded?: boolean;
}

/** Options of one fetch, shared by both fetchers. */
export interface FetchOptions {
  timeoutMs?: number;
  /** Browser only: wait for this selector after the page settled (load, then DOM and requests quiet). */
  waitFor?: string;
  /** Browser only: capture a PNG screenshot of the viewport. */
  screenshot?: boolean;
  /** Browser only: load images, fonts and media although no `screenshot` was asked for (screenshot actions). */
  loadAssets?: boolean;
  /** Browser only: iframes on hosts this policy allowlists are captured too (default: same-site frames only). */
  policy?: import('../governance/target-policy.js').TargetPolicy;
  /** Browser only: drive the page (the scrape's actions) after it settled, before it is captured. */
  interact?: (tab: Tab) => Promise<void>;
}

/** Outcome recorded for every request (the raw scrape log, kept 90 days). */
export type LogDecision = 'fetched' | 'robots_skipped' | 'blocked' | 'forbidden' | 'error';

/** One line of the raw scrape log. Never contains page content or secrets. */
export interface RawLogEntry {
  ts: string;
  url: string;
  final_url?: string;
  status: number | null;
  bytes: number;
  timing_ms: number;
  engine: EngineUsed | null;
  decision: LogDecision;
  /** Why (robots rule, challenge kind, error code). */
  reason?: string;
}

/** A CAPTCHA/challenge the engine stopped at (never solved, never retried). */
export interface ChallengeBlock {
  kind: string;
  reason: string;
}

/** Result of {@link Engine.scrapePage}. Content fields are present when their format was asked for. */
export interface PageResult {
  url: string;
  final_url: string;
  /** 0 when the page was never fetched (robots). */
  status_code: number;
  engine_used: EngineUsed | null;
  fetched_at: string;
  /** Media type of the response (`text/html`, `application/pdf`…); absent when nothing was fetched. */
  content_type?: string;
  title?: string;
  markdown?: string;
  html?: string;
  text?: string;
  links?: string[];
  metadata?: PageMetadata;
  screenshot?: string;
  extracted?: Record<string, FieldValue>;
  /** Model extraction (format `json`): the object, valid against the caller's schema... */
  json?: unknown;
  /** ...or why there is none. */
  json_error?: JsonError;
  json_usage?: JsonUsage;
  /** Typed data (formats `product`, `product_list`, `article`, `job_posting`): each object or null. */
  product?: TypedData['product'];
  product_list?: TypedData['product_list'];
  article?: TypedData['article'];
  job_posting?: TypedData['job_posting'];
  /** Present when robots.txt disallows the URL; nothing was fetched. */
  skipped?: 'robots';
  /** Present when the response is a challenge/CAPTCHA wall; the page has no content fields. */
  blocked?: ChallengeBlock;
  /** Why `auto` chose the browser (null when it stayed on http). */
  auto_reason?: string | null;
  /** What the page actions produced (present when actions were run). */
  actions?: { screenshots: string[] };
}

/** Options of {@link Engine.scrapePage}. */
export interface ScrapeOptions {
  engine: EngineChoice;
  formats?: ScrapeFormat[];
  extract?: Record<string, FieldSpec>;
  wait_for?: string;
  timeout_ms?: number;
  /** Format `json`: the caller's schema and prompt. */
  json?: { schema: Record<string, unknown>; prompt?: string };
  /** `markdown` holds the main content only (default true); false: the whole page. */
  only_main_content?: boolean;
  /** CSS selectors: only these elements become `markdown`. */
  include_tags?: string[];
  /** CSS selectors: elements removed before `markdown` is made. */
  exclude_tags?: string[];
  /** Browser actions run before the page is captured (the engine is then browser). */
  actions?: PageAction[];
  /** Typed formats: `model: true` fills fields the page left empty through the governed model path. */
  typed?: { model?: boolean };
}

/** Run counters (API.md run `stats`, plus a few the worker may use). */
export interface EngineStats {
  /** Page requests made (each engine attempt counts; robots skips do not). */
  requests: number;
  /** Bytes of main documents received. */
  bytes: number;
  /** Requests refused by the egress guard: http redirects and browser (sub)requests. */
  blocked_requests: number;
  robots_skipped: number;
  /** Pages that hit a challenge/CAPTCHA. */
  challenges: number;
  errors: number;
}

/** A response handed to the reader of `Engine.fetchResource` (a sitemap); the body is streamed, not buffered. */
export interface ResourceResponse {
  url: string;
  /** After redirects (each hop checked by the egress guard). */
  finalUrl: string;
  status: number;
  headers: Headers;
  body: AsyncIterable<Uint8Array>;
}

/** What the reader of `Engine.fetchResource` made of a body: its value, the bytes it read, a note for the log line. */
export interface ResourceRead<T> {
  value: T;
  bytes: number;
  note?: string;
}

/** Outcome of `Engine.fetchResource`: robots.txt disallowed it, or the reader's value. */
export type ResourceResult<T> = { skipped: 'robots' } | { skipped?: undefined; status: number; finalUrl: string; value: T };
