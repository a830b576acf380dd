/**
 * URL patterns for crawl include/exclude lists. A pattern written as `/…/flags` is a regular
 * expression tested against the full URL. Anything else is a glob: `**` matches anything, `*`
 * anything but `/`, `?` one character; a glob that starts with `http://` or `https://` is matched
 * against the full URL, otherwise against the path plus query (`/blog/**`, `*.pdf`... a glob with
 * no `/` matches the last path segment only when it starts with `*`).
 */
export interface UrlPattern {
  source: string;
  test(url: string): boolean;
}

const REGEX_LITERAL = /^\/(.+)\/([dgimsuy]*)$/s;

/** Is this string a valid pattern? Returns an error message or null (for schema refinements). */
export function patternError(pattern: string): string | null {
  try {
    compilePattern(pattern);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        // `**/` also matches zero directories: `/a/**/b` covers `/a/b`.
        if (glob[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Compile one pattern. @throws Error on an invalid regular expression. */
export function compilePattern(pattern: string): UrlPattern {
  const lit = REGEX_LITERAL.exec(pattern);
  if (lit) {
    const re = new RegExp(lit[1], lit[2].replace(/[gy]/g, ''));
    return { source: pattern, test: (url) => re.test(url) };
  }
  const full = /^https?:\/\//i.test(pattern);
  const re = globToRegExp(pattern);
  return {
    source: pattern,
    test(url) {
      if (full) return re.test(url);
      try {
        const u = new URL(url);
        const path = u.pathname + u.search;
        if (re.test(path) || re.test(u.pathname)) return true;
        // `*.pdf`-style globs (no slash): match the last path segment.
        return !pattern.includes('/') && re.test(u.pathname.split('/').pop() ?? '');
      } catch {
        return false;
      }
    },
  };
}

/** Include/exclude filter: included when it matches any include (or there are none) and no exclude. */
export function urlFilter(include: string[] = [], exclude: string[] = []): (url: string) => boolean {
  const inc = include.map(compilePattern);
  const exc = exclude.map(compilePattern);
  return (url) => (inc.length === 0 || inc.some((p) => p.test(url))) && !exc.some((p) => p.test(url));
}
