import { sameSite } from '../scrapers/normalize-url.js';

/** The registrable-ish base of a host for subdomain matching: lowercased, without `www.`. */
const baseHost = (host: string) => host.toLowerCase().replace(/^www\./, '');

/**
 * Is `url` part of the site that starts at `start`? Same site as the crawl means (same host, a
 * `www.` prefix ignored, same port; see `sameSite`); with `includeSubdomains`, any host under the
 * start's host counts too (`blog.example.com` for `example.com`), on http(s) only.
 */
export function inSiteScope(url: string, start: string, includeSubdomains = false): boolean {
  if (!/^https?:\/\//i.test(url)) return false;
  if (sameSite(url, start)) return true;
  if (!includeSubdomains) return false;
  try {
    const u = new URL(url);
    const s = new URL(start);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
    const base = baseHost(s.hostname);
    const host = u.hostname.toLowerCase();
    return host === base || host.endsWith(`.${base}`);
  } catch {
    return false;
  }
}
