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

/**
 * GET `url` following redirects one hop at a time, at most `maxRedirects`, each hop admitted by
 * `admit` before it is sent and re-checked by the egress guard when it connects. The deadline
 * covers the whole chain. `redirects` lists the URLs that answered with a redirect, in order.
 */
export async function fetchFollowingRedirects(
  guard: EgressGuard,
  url: string,
  init: GuardedFetchInit & { maxRedirects: number; timeoutMs: number },
  admit: AdmitHop,
): Promise<GuardedResponse> {
  const started = performance.now();
  const deadline = Date.now() + init.timeoutMs;
  const redirects: string[] = [];
  let current = url;
  for (let hop = 0; ; hop++) {
    const left = deadline - Date.now();
    if (left <= 0) throw new EgressTimeoutError(current, init.timeoutMs);
    const release = await admit(current, hop);
    let res: GuardedResponse;
    try {
      res = await guard.fetch(current, { ...init, maxRedirects: 0, timeoutMs: Math.max(1, deadline - Date.now()) });
    } finally {
      await release?.();
    }
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || !location) return { ...res, redirects, timingMs: Math.round(performance.now() - started) };
    if (hop >= init.maxRedirects) throw new TooManyRedirectsError(url, init.maxRedirects);
    redirects.push(res.url);
    current = nextHop(location, res.url);
  }
}

/** A Location resolved against the URL that sent it (scheme-relative and relative forms too). */
function nextHop(location: string, from: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(location)) return location;
  return new URL(location, from).href;
}
