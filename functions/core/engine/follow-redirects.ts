import type { EgressGuard } from '../governance/egress-guard.js';
import { EgressTimeoutError, TooManyRedirectsError } from '../governance/egress-errors.js';
import type { GuardedFetchInit, GuardedResponse } from '../governance/guarded-fetch.js';

/**
 * Governs one request of a redirect chain before it is sent (issue 19 finding 1): hop 0 is the
 * URL asked for, hop n the n-th redirect target. It throws to refuse the hop (target policy,
 * robots.txt) and resolves, once the host's politeness gate lets the request start, to the
 * function that gives the gate's slot back (called when that hop's answer is in).
 */
export type AdmitHop = (url: string, hop: number) => Promise<(() => Promise<void>) | undefined>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One hop's request: a response for `url` (never following a redirect itself), within `timeoutMs`. */
type SendHop<R> = (url: string, timeoutMs: number) => Promise<R>;

/**
 * The redirect loop every governed request shares: `url` requested one hop at a time, at most
 * `maxRedirects`, each hop admitted by `admit` before it is sent. The deadline covers the whole
 * chain. A redirect's answer is dropped with `discard` (a streamed body is cancelled). The last
 * hop's gate slot is handed back as `release` (the caller gives it back once it read the body);
 * every earlier hop's slot is given back when its answer is in.
 */
export async function followRedirects<R extends { status: number; headers: Headers }>(
  url: string,
  opts: { maxRedirects: number; timeoutMs: number },
  admit: AdmitHop,
  send: SendHop<R>,
  discard: (res: R) => Promise<void> = async () => undefined,
): Promise<{ res: R; url: string; redirects: string[]; release: (() => Promise<void>) | undefined }> {
  const deadline = Date.now() + opts.timeoutMs;
  const redirects: string[] = [];
  let current = url;
  for (let hop = 0; ; hop++) {
    if (deadline - Date.now() <= 0) throw new EgressTimeoutError(current, opts.timeoutMs);
    const release = await admit(current, hop);
    let res: R;
    try {
      res = await send(current, Math.max(1, deadline - Date.now()));
    } catch (err) {
      await release?.();
      throw err;
    }
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || !location) return { res, url: current, redirects, release };
    await release?.();
    await discard(res);
    if (hop >= opts.maxRedirects) throw new TooManyRedirectsError(url, opts.maxRedirects);
    redirects.push(current);
    current = nextHop(location, current);
  }
}

/**
 * GET `url` through the egress guard following redirects one hop at a time (see
 * {@link followRedirects}), each hop re-checked by the guard when it connects, the body buffered.
 * `redirects` lists the URLs that answered with a redirect, in order.
 */
export async function fetchFollowingRedirects(
  guard: EgressGuard,
  url: string,
  init: GuardedFetchInit & { maxRedirects: number; timeoutMs: number },
  admit: AdmitHop,
): Promise<GuardedResponse> {
  const started = performance.now();
  const { res, redirects, release } = await followRedirects(url, init, admit, (hop, timeoutMs) => guard.fetch(hop, { ...init, maxRedirects: 0, timeoutMs }));
  await release?.();
  return { ...res, redirects, timingMs: Math.round(performance.now() - started) };
}

/** A Location resolved against the URL that sent it (scheme-relative and relative forms too). */
function nextHop(location: string, from: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(location)) return location;
  return new URL(location, from).href;
}
