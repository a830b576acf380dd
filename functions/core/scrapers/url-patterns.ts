import type { RE2JS } from 're2js';
import { lazyEngine } from '../lazy-engine.js';

type Re2Engine = typeof import('./re2-engine.js');

/**
 * re2js (147 KiB, Unicode tables built at load), loaded on the first pattern compiled rather than
 * at import: functions that import the crawl input schema mostly never compile a pattern.
 */
const re2Engine = lazyEngine<Re2Engine>(import.meta.url, 're2js', () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild's lazy module init (lazy-engine.ts)
  require('./re2-engine.js'),
);
const re2 = (): Re2Engine['RE2JS'] => re2Engine().RE2JS;

/**
 * URL patterns for crawl include/exclude lists. A pattern written as `/…/flags` is a regular
 * expression tested against the full URL. Anything else is a glob: `**` matches anything, `*`
 * anything but `/`, `?` one character; a glob that starts with `http://` or `https://` is matched
 * against the full URL, otherwise against the path plus query (`/blog/**`, `*.pdf`... a glob with
 * no `/` matches the last path segment only when it starts with `*`).
 *
 * Patterns come from tenants, so every pattern (regex or glob) is compiled with RE2 (re2js, a
 * pure-JS port): matching time is linear in the URL length times the program size, never
 * exponential, so a hostile pattern cannot stall the event loop for everyone. RE2 has no
 * backreferences or lookaround; such patterns are refused at submit with a clear message. The
 * program size of each pattern and of a whole list is capped, and URLs longer than
 * {@link MAX_MATCHED_URL_LENGTH} never match, so the cost of one test has a fixed upper bound.
 */
export interface UrlPattern {
  source: string;
  /** RE2 instructions: the per-character cost of a test. */
  size: number;
  test(url: string): boolean;
}

/** URLs longer than this match no pattern (and so are not followed when a crawl has includes). */
export const MAX_MATCHED_URL_LENGTH = 2048;
/** RE2 program size allowed for one pattern. */
export const MAX_PATTERN_PROGRAM = 400;
/** RE2 program size allowed for all of a crawl's include and exclude patterns together. */
export const MAX_PATTERNS_PROGRAM = 4000;

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

/** Is this list of patterns, taken together, cheap enough to test on every link? Error message or null. */
export function patternsError(patterns: string[]): string | null {
  let total = 0;
  for (const p of patterns) {
    try {
      total += compilePattern(p).size;
    } catch {
      continue; // reported per pattern by patternError
    }
  }
  return total > MAX_PATTERNS_PROGRAM
    ? `the include and exclude patterns together are too complex (${total} regular expression instructions; at most ${MAX_PATTERNS_PROGRAM})`
    : null;
}

function globToRegExp(glob: string): string {
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
  return `^${re}$`;
}

/** RE2's parse errors, said in terms of what a tenant wrote. */
function re2Message(err: unknown): string {
  const msg = (err as Error).message ?? String(err);
  if (/invalid escape sequence: `\\[1-9]/.test(msg)) return `backreferences are not supported (${msg})`;
  if (/\(\?[=!]|\(\?<[=!]/.test(msg)) return `lookahead and lookbehind are not supported (${msg})`;
  return msg;
}

function compileRe2(source: string, flags: number): RE2JS {
  let re: RE2JS;
  try {
    re = re2().compile(source, flags);
  } catch (err) {
    throw new Error(`invalid regular expression: ${re2Message(err)}`, { cause: err });
  }
  const size = re.programSize();
  if (size > MAX_PATTERN_PROGRAM) {
    throw new Error(`regular expression too complex (${size} instructions; at most ${MAX_PATTERN_PROGRAM})`);
  }
  return re;
}

/** Compile one pattern. @throws Error with a message for an invalid, unsupported or too complex pattern. */
export function compilePattern(pattern: string): UrlPattern {
  const lit = REGEX_LITERAL.exec(pattern);
  if (lit) {
    // JavaScript flags: g/y/d are meaningless for a yes/no test, u is RE2's default.
    const f = lit[2];
    const R = re2();
    const flags = (f.includes('i') ? R.CASE_INSENSITIVE : 0) | (f.includes('s') ? R.DOTALL : 0) | (f.includes('m') ? R.MULTILINE : 0);
    const re = compileRe2(lit[1], flags);
    return { source: pattern, size: re.programSize(), test: (url) => url.length <= MAX_MATCHED_URL_LENGTH && re.test(url) };
  }
  const full = /^https?:\/\//i.test(pattern);
  const re = compileRe2(globToRegExp(pattern), 0);
  return {
    source: pattern,
    size: re.programSize(),
    test(url) {
      if (url.length > MAX_MATCHED_URL_LENGTH) return false;
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
