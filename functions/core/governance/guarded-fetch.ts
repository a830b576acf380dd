import { fetch as undiciFetch, request, type Dispatcher } from 'undici';
import { AppError } from '../errors.js';
import { EgressTimeoutError, ResponseTooLargeError, TooManyRedirectsError } from './egress-errors.js';

/** RequestInit plus the guard's limits. */
export type GuardedFetchInit = RequestInit & {
  /** Redirect hops to follow (default 10). 0 returns the 3xx response as is. */
  maxRedirects?: number;
  /** Body cap in bytes (default 10 MiB); beyond it the transfer is aborted. `fetch` only. */
  maxBytes?: number;
  /** Deadline for the whole exchange, every hop and the body included (default 30 s). */
  timeoutMs?: number;
};

/** A fully buffered response. `redirects` lists each URL that answered with a redirect, in order. */
export interface GuardedResponse {
  /** Final URL after redirects. */
  url: string;
  status: number;
  headers: Headers;
  body: Buffer;
  redirects: string[];
  timingMs: number;
}

/** The slice of EgressGuard a fetch needs (kept structural to avoid an import cycle). */
export interface FetchGuard {
  readonly dispatcher: Dispatcher;
  readonly userAgent: string;
  checkUrl(url: string | URL): Promise<URL>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Headers that must not follow a redirect to another origin (they belong to the first one).
const ORIGIN_BOUND = ['authorization', 'cookie', 'proxy-authorization'];

interface Plan {
  method: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  signal: AbortSignal;
  timeout: AbortSignal;
  maxRedirects: number;
  timeoutMs: number;
}

async function plan(guard: FetchGuard, init: GuardedFetchInit): Promise<Plan> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => (headers[k] = v));
  headers['user-agent'] ??= guard.userAgent;
  const body = await toBuffer(init.body, headers);
  const timeoutMs = init.timeoutMs ?? 30_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  return { method: (init.method ?? 'GET').toUpperCase(), headers, body, signal, timeout, maxRedirects: init.maxRedirects ?? 10, timeoutMs };
}

// Bodies are buffered up front so a 307/308 hop can resend them.
async function toBuffer(body: RequestInit['body'], headers: Record<string, string>): Promise<Buffer | undefined> {
  if (body == null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
    return Buffer.from(body.toString());
  }
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof Blob) return Buffer.from(await body.arrayBuffer());
  throw new TypeError('Guarded fetch supports string, URLSearchParams, Blob and binary bodies only');
}

/** Resolve a Location header against the current URL, keeping the raw spelling for absolute ones. */
function nextTarget(location: string, current: URL): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(location)) return location;
  if (/^[/\\]{2}/.test(location)) return `${current.protocol}${location}`;
  return new URL(location, current).href;
}

/** Apply RFC 9110 redirect semantics to the plan for the next hop. */
function redirectPlan(p: Plan, status: number, from: URL, to: URL): void {
  if (status === 303 ? p.method !== 'HEAD' : (status === 301 || status === 302) && p.method === 'POST') {
    p.method = 'GET';
    p.body = undefined;
    delete p.headers['content-type'];
    delete p.headers['content-length'];
  }
  if (from.origin !== to.origin) for (const h of ORIGIN_BOUND) delete p.headers[h];
}

function mapAbort(err: unknown, p: Plan, url: string): unknown {
  if (p.timeout.aborted && !(err instanceof AppError)) return new EgressTimeoutError(url, p.timeoutMs);
  // undici's fetch wraps connector errors in TypeError('fetch failed'); surface our own refusals.
  if (err instanceof TypeError && err.cause instanceof AppError) return err.cause;
  return err;
}

/** Guarded fetch returning a buffered body. See EgressGuard.fetch. */
export async function guardedFetch(guard: FetchGuard, url: string, init: GuardedFetchInit): Promise<GuardedResponse> {
  const started = performance.now();
  const p = await plan(guard, init);
  const maxBytes = init.maxBytes ?? 10 * 1024 * 1024;
  const redirects: string[] = [];
  let current = await guard.checkUrl(url);
  try {
    for (;;) {
      const res = await request(current, { dispatcher: guard.dispatcher, method: p.method as Dispatcher.HttpMethod, headers: p.headers, body: p.body, signal: p.signal });
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode) && typeof location === 'string' && p.maxRedirects > 0) {
        await res.body.dump();
        if (redirects.length >= p.maxRedirects) throw new TooManyRedirectsError(url, p.maxRedirects);
        const next = await guard.checkUrl(nextTarget(location, current));
        redirects.push(current.href);
        redirectPlan(p, res.statusCode, current, next);
        current = next;
        continue;
      }
      const body = await readCapped(res.body, maxBytes, current.href, res.headers['content-length']);
      const headers = new Headers();
      for (const [k, v] of Object.entries(res.headers)) for (const one of [v ?? []].flat()) headers.append(k, one);
      return { url: current.href, status: res.statusCode, headers, body, redirects, timingMs: Math.round(performance.now() - started) };
    }
  } catch (err) {
    throw mapAbort(err, p, current.href);
  }
}

async function readCapped(body: Dispatcher.ResponseData['body'], max: number, url: string, length: unknown): Promise<Buffer> {
  // Destroying undici's body emits an abort error; nobody else listens, so swallow it here.
  const abort = () => body.on('error', () => undefined).destroy();
  if (typeof length === 'string' && Number(length) > max) {
    abort();
    throw new ResponseTooLargeError(url, max);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).length;
    if (total > max) {
      abort();
      throw new ResponseTooLargeError(url, max);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Guarded fetch returning a standard Response (body streamed, not capped). See EgressGuard.fetchResponse. */
export async function guardedFetchResponse(guard: FetchGuard, url: string, init: GuardedFetchInit): Promise<Response> {
  const p = await plan(guard, init);
  let current = await guard.checkUrl(url);
  let hops = 0;
  try {
    for (;;) {
      const res = await undiciFetch(current, { dispatcher: guard.dispatcher, method: p.method, headers: p.headers, body: p.body, signal: p.signal, redirect: 'manual' });
      const location = res.headers.get('location');
      if (!REDIRECTS.has(res.status) || !location || p.maxRedirects === 0) return res as unknown as Response;
      await res.body?.cancel();
      if (++hops > p.maxRedirects) throw new TooManyRedirectsError(url, p.maxRedirects);
      const next = await guard.checkUrl(nextTarget(location, current));
      redirectPlan(p, res.status, current, next);
      current = next;
    }
  } catch (err) {
    throw mapAbort(err, p, current.href);
  }
}
