/** Query parameters that only track the visitor; dropped so they do not multiply crawl URLs. */
const TRACKING = /^(utm_[a-z]+|gclid|fbclid|mc_cid|mc_eid|_ga|ref_src)$/i;

/**
 * Canonical form of a URL for crawl de-duplication: no fragment, no empty query, no tracking
 * parameters, remaining parameters sorted, default port dropped, host lowercased (the URL parser
 * does the last two). Returns null for anything that is not http(s).
 */
export function normalizeUrl(raw: string, base?: string): string | null {
  let u: URL;
  try {
    u = new URL(raw, base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  // Already canonical (no fragment, no query, no trailing dot): the steps below would change
  // nothing. A crawl's links mostly are; this skips their query handling and re-serialisations.
  const href = u.href;
  if (!href.includes('#') && !href.includes('?') && !u.hostname.endsWith('.')) return href;
  u.hash = '';
  const params = [...u.searchParams.entries()].filter(([k]) => !TRACKING.test(k));
  params.sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  u.search = params.length ? new URLSearchParams(params).toString() : '';
  if (u.hostname.endsWith('.')) u.hostname = u.hostname.slice(0, -1);
  return u.href;
}

/** Host without a leading `www.` and with the effective port: what "same site" compares. */
function siteKey(u: URL): string {
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `${u.hostname.replace(/^www\./, '')}:${port}`;
}

/** The last `b` of sameSite parsed (a crawl compares every link with its one start URL); read only. */
let start: { raw: string; url: URL } | undefined;
const parsedStart = (raw: string): URL => (start?.raw === raw ? start.url : (start = { raw, url: new URL(raw) }).url);

/**
 * Same site for crawling: same host (a `www.` prefix ignored) and same port; http and https of
 * one host count as the same site only on their default ports.
 */
export function sameSite(a: string, b: string): boolean {
  try {
    const ua = new URL(a);
    const ub = parsedStart(b);
    if (siteKey(ua) === siteKey(ub)) return true;
    const defaultPort = (u: URL) => !u.port;
    return ua.hostname.replace(/^www\./, '') === ub.hostname.replace(/^www\./, '') && defaultPort(ua) && defaultPort(ub);
  } catch {
    return false;
  }
}
