import { normalizeUrl } from '../scrapers/normalize-url.js';

/**
 * The page a request names, as answers and change baselines are keyed: the normalised URL, with
 * its fragment when the page may be rendered by the browser (engine `browser` or `auto`), where a
 * fragment is a route of the page's own script (`#/a` and `#/b` of a single-page app are two
 * pages). The http engine never sends a fragment: there it is dropped.
 */
export function pageKeyUrl(raw: string, engine: unknown): string {
  const url = normalizeUrl(raw) ?? raw;
  if (engine === 'http') return url;
  const hash = raw.indexOf('#');
  return hash >= 0 && hash < raw.length - 1 ? `${url}${raw.slice(hash)}` : url;
}
