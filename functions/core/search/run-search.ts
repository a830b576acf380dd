import { AppError } from '../errors.js';
import { ProviderFailed, providerError } from './provider-errors.js';
import { decideResult, selectResults, type GovernedResult, type ResultChecks } from './govern-results.js';
import type { FetchFn } from '../sources/types.js';
import type { SearchRequest } from './search-request.js';
import type { SearchProvider } from './types.js';

/** A scraped result: the page as POST /v1/scrape answers it, or its own error. */
export type ResultScrape = Record<string, unknown> | { error: { code: string; message: string } };

/** One result of the answer (API.md "Search"). */
export interface SearchResultOut {
  rank: number;
  url: string;
  title: string;
  snippet: string;
  published_at: string | null;
  policy: GovernedResult['policy'];
  scrape?: ResultScrape;
}

export interface SearchAnswer {
  query: string;
  provider: string;
  data: SearchResultOut[];
  usage: { searches: number; pages: number };
}

/** What a search runs with: wired by the worker (or a test), so this stays free of I/O of its own. */
export interface SearchEnv {
  provider: SearchProvider;
  credentials: Record<string, string>;
  baseUrl: string;
  fetch: FetchFn;
  checks: ResultChecks;
  /** Time the provider call may take. */
  providerTimeoutMs: number;
  /** Scrape one allowed result; resolves with the page, or `{ error }` — it must not throw for a page's own failure. */
  scrape?: (url: string) => Promise<{ scrape: ResultScrape; billed: boolean }>;
  /** Results scraped at once (the tenant's share; per-host politeness is the scrape's own). */
  concurrency: number;
  /** Called once per result that was fetched (the audit record per fetched URL). */
  onFetched?: (url: string, scrape: ResultScrape) => void | Promise<void>;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
}

const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
  });

/**
 * A governed search: ask the provider, govern its results (governResults: de-duplicated by
 * normalised URL, each decided before any fetch), then scrape the allowed ones concurrently when
 * `scrape` is asked for. A page that fails carries its own error; only the provider's failure
 * fails the search (as an AppError without the provider's body).
 */
export async function runSearch(env: SearchEnv, req: SearchRequest): Promise<SearchAnswer> {
  const signal = AbortSignal.any([AbortSignal.timeout(env.providerTimeoutMs), ...(env.signal ? [env.signal] : [])]);
  const sleep = env.sleep ?? abortableSleep;
  let found;
  try {
    found = await env.provider.search({
      query: { query: req.query, limit: Math.min(req.limit, env.provider.maxResults), country: req.country, language: req.language, time_range: req.time_range, include_domains: req.include_domains, exclude_domains: req.exclude_domains },
      credentials: env.credentials,
      baseUrl: env.baseUrl,
      fetch: env.fetch,
      signal,
      sleep: (ms) => sleep(ms, signal),
    });
  } catch (e) {
    if (e instanceof ProviderFailed) throw providerError(env.provider.name, e.failure);
    if (e instanceof AppError) throw e;
    throw providerError(env.provider.name, signal.aborted ? { kind: 'timeout' } : { kind: 'unavailable' });
  }
  // Only results that will be fetched need robots.txt: without `scrape` nothing is fetched.
  const scrape = req.scrape ? env.scrape : undefined;
  const checks = scrape ? env.checks : { ...env.checks, robots: undefined };
  const data: SearchResultOut[] = selectResults(found.results, req).map((g) => ({ rank: g.rank, url: g.url, title: g.title, snippet: g.snippet, published_at: g.published_at, policy: { decision: 'denied', reason: 'not decided' } }));
  let pages = 0;
  // Each result is fetched as soon as its own decision allows it (no wait for the others'),
  // at most `concurrency` at once.
  let active = 0;
  const waiting: (() => void)[] = [];
  // A slot given back goes straight to the next waiting result (never counted free in between).
  const slot = async () => {
    if (active >= Math.max(1, env.concurrency)) await new Promise<void>((r) => waiting.push(r));
    else active++;
  };
  const free = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  await Promise.all(data.map(async (r) => {
    r.policy = await decideResult(r.url, checks);
    if (!scrape || r.policy.decision !== 'allowed') return;
    await slot();
    let out: { scrape: ResultScrape; billed: boolean };
    try {
      out = await scrape(r.url);
    } catch (e) {
      out = { scrape: { error: { code: e instanceof AppError ? e.code : 'scrape_failed', message: e instanceof AppError ? e.message : 'The page could not be fetched' } }, billed: false };
    } finally {
      free();
    }
    r.scrape = out.scrape;
    if (out.billed) pages++;
    await env.onFetched?.(r.url, out.scrape);
  }));
  return { query: req.query, provider: env.provider.name, data, usage: { searches: 1, pages } };
}
