import { parseRetryAfter } from '../sources/http-json.js';
import { ProviderFailed, DEFAULT_PROVIDER_RETRY_AFTER_S, type ProviderFailure } from './provider-errors.js';
import type { ProviderContext } from './types.js';

/** A provider's reading of a non-2xx answer; undefined → the generic one ({@link genericFailure}). */
export type Classify = (status: number, headers: Headers) => ProviderFailure | undefined;

/** Attempts for 5xx answers and network errors (a burst of 5xx is retried, a long outage is not). */
const MAX_ATTEMPTS = 3;
/** Longest Retry-After waited for inside one search; a longer one goes back to the tenant. */
const MAX_INLINE_WAIT_S = 1;
/** Largest provider answer read (a search page is a few tens of KB). */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** 429 → rate (its Retry-After, else the default); 5xx → unavailable; 401/403 → credentials; other 4xx → rejected. */
export function genericFailure(status: number, headers: Headers): ProviderFailure {
  if (status === 429) return { kind: 'rate', retryAfterSeconds: retryAfterOf(headers) ?? DEFAULT_PROVIDER_RETRY_AFTER_S };
  if (status >= 500) return { kind: 'unavailable', status };
  if (status === 401 || status === 403) return { kind: 'credentials' };
  return { kind: 'rejected', status };
}

/** Whole seconds of a Retry-After header (seconds or HTTP date), at least 1; undefined when absent. */
export function retryAfterOf(headers: Headers): number | undefined {
  const s = parseRetryAfter(headers.get('retry-after'));
  return s === undefined ? undefined : Math.max(1, Math.ceil(s));
}

/**
 * One JSON call to a provider: 5xx and network errors retried with a short backoff, a 429 whose
 * Retry-After is at most a second waited for once, everything else turned into a
 * {@link ProviderFailed} at once. The provider's error bodies are never read into a message.
 *
 * @returns the parsed body and how many requests it took
 */
export async function providerJson(ctx: ProviderContext, url: string, init: RequestInit, classify?: Classify): Promise<{ body: unknown; requests: number }> {
  const headers = new Headers(init.headers);
  headers.set('accept', 'application/json');
  let waitedForRate = false;
  for (let attempt = 1; ; attempt++) {
    if (ctx.signal.aborted) throw new ProviderFailed({ kind: 'timeout' });
    let res: Response;
    try {
      res = await ctx.fetch(url, { ...init, headers, signal: ctx.signal });
    } catch {
      if (ctx.signal.aborted) throw new ProviderFailed({ kind: 'timeout' });
      if (attempt >= MAX_ATTEMPTS) throw new ProviderFailed({ kind: 'unavailable' });
      await ctx.sleep(150 * 2 ** (attempt - 1));
      continue;
    }
    if (res.ok) {
      const text = await readCapped(res);
      try {
        return { body: JSON.parse(text), requests: attempt };
      } catch {
        throw new ProviderFailed({ kind: 'bad_response' });
      }
    }
    await res.body?.cancel().catch(() => undefined);
    const failure = classify?.(res.status, res.headers) ?? genericFailure(res.status, res.headers);
    if (failure.kind === 'unavailable' && attempt < MAX_ATTEMPTS) {
      await ctx.sleep(150 * 2 ** (attempt - 1));
      continue;
    }
    if (failure.kind === 'rate' && !waitedForRate && failure.retryAfterSeconds <= MAX_INLINE_WAIT_S && res.headers.has('retry-after')) {
      waitedForRate = true;
      await ctx.sleep(failure.retryAfterSeconds * 1000);
      continue;
    }
    throw new ProviderFailed(failure);
  }
}

async function readCapped(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new ProviderFailed({ kind: 'bad_response' });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The string at `v`, trimmed, or '' (provider fields are untrusted). */
export const str = (v: unknown, max = 2000): string => (typeof v === 'string' ? v.trim().slice(0, max) : '');

/** An ISO 8601 timestamp from a provider's date string, or null when it is absent or unreadable. */
export function isoDate(v: unknown): string | null {
  if (typeof v !== 'string' || !v.trim()) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** Only http(s) URLs are results; anything else (javascript:, relative, garbage) is dropped. */
export function resultUrl(v: unknown): string | null {
  if (typeof v !== 'string' || v.length > 2048) return null;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** The API URL under a base that may carry a path (`https://search.example.org/searx`). */
export function joinBase(base: string, path: string): URL {
  return new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
}
