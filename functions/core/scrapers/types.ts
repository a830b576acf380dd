import type { z } from 'zod';
import type { Engine } from '../engine/pipeline.js';
import type { EngineChoice } from '../engine/types.js';
import type { ChangeView, TrackedPage } from '../changes/change-tracker.js';
import type { AnswerCache } from '../freshness/page-cache.js';
import type { SearchAnswer } from '../search/run-search.js';
import type { SearchRequest } from '../search/search-request.js';

/** One result item (API.md run results): `{ url, fetched_at, status_code, data }`. */
export interface ScrapeItem {
  url: string;
  fetched_at: string;
  status_code: number;
  data: Record<string, unknown>;
  /** True when the item is an earlier fetch's, served for max_age (then fetched_at is that fetch's). */
  cached?: true;
}

/** Run progress (API.md run `progress`); `items` is counted by the caller from `emit`. */
export interface ScraperProgress {
  pages_done: number;
  pages_total: number | null;
}

/** What a scraper gets from the run worker. */
export interface ScraperContext {
  /** The run's engine (governance, both fetchers, counters). */
  engine: Engine;
  /** Store one item, in scrape order. */
  emit(item: ScrapeItem): Promise<void>;
  /** True once the run was cancelled or hit a limit (time, quota). Checked between pages. */
  shouldStop(): boolean;
  /**
   * Aborted when the run must end now (cancel, max_runtime, the worker's deadline, shutdown):
   * long steps (browser waits) listen to it instead of waiting for their own timeouts. The run's
   * browser is closed right after, so anything still pending on it fails fast.
   */
  signal?: AbortSignal;
  progress(p: ScraperProgress): void;
  /** Change tracking, when the input asks for the `changes` format (core/changes). */
  changes?: { track(page: TrackedPage): Promise<ChangeView> };
  /** This tenant's earlier answers (max_age); absent where nothing may be served from a cache. */
  answers?: AnswerCache;
  /** A governed search with the tenant's provider credentials (core/search), for the web-search scraper. */
  search?: (request: SearchRequest) => Promise<SearchAnswer>;
}

/** Why a scraper returned. `challenge` = stopped at a CAPTCHA/challenge (run status `blocked`). */
export type ScraperStop = 'done' | 'stopped' | 'challenge';

/** What `run` resolves to; the worker maps `challenge` to run status `blocked`. */
export interface ScraperOutcome {
  pages_done: number;
  items: number;
  stopped: ScraperStop;
}

/** A built-in scraper (or a published runbook) as listed by `GET /v1/scrapers`. */
export interface Scraper<I = unknown> {
  scraper_id: string;
  name: string;
  description: string;
  /** Default engine; inputs may override it with `engine`. */
  engine: EngineChoice;
  /** Strict zod schema: `POST /v1/runs` validates `input` with it (unknown fields rejected). */
  inputSchema: z.ZodType<I>;
  /** The same schema as JSON Schema, for the API and the console. */
  input_schema: Record<string, unknown>;
  builtin: boolean;
  /** Names of the tenant secrets it fills (runbooks): running it needs the `secrets:use` scope. */
  secrets?: string[];
  run(input: I, ctx: ScraperContext): Promise<ScraperOutcome>;
}

/**
 * A scraper as the API sees it: what it is and what input it takes, without `run`. Kept apart
 * from the running code so that validating a run request never bundles the engine.
 */
export type ScraperSpec<I = unknown> = Omit<Scraper<I>, 'run'>;

/** Should the scraper stop before the next page? Cancellation, limits, or a stop_run challenge. */
export function halted(ctx: ScraperContext): ScraperStop | null {
  if (ctx.engine.stopReason()) return 'challenge';
  if (ctx.shouldStop()) return 'stopped';
  return null;
}
