import { createHash } from 'node:crypto';

/**
 * What changes on every load of a page without meaning, taken out of a line before two versions
 * are compared (API.md "Change tracking"). Each rule is narrow on purpose: a real edit of one
 * sentence, one price or one table cell must still differ after normalisation, so digits are
 * never removed wholesale; only numbers that are part of a relative time ("5 minutes ago"), a
 * clock time with seconds, a full timestamp, a date on a line that says it is a render time
 * ("Last updated: …", "Generated …") or a live counter ("1699 views") become a token.
 *
 * Page text is anyone's (a stranger's comment on a watched page included) and this runs for
 * every tracked page, so nothing here backtracks (issue 37 finding 1): a line is split once into
 * tokens (words, numbers, spaces, single marks) and each rule looks at a bounded number of tokens
 * from where it starts; the one rule with a repetition (a relative time of several parts) skips
 * the whole run it scanned when it does not end in "ago", so no token is scanned twice by it.
 * Work is linear in the line, and a line is normalised only up to {@link MAX_NORMALIZED_CHARS}
 * (the rest is compared by a hash of its squeezed text). Working on tokens also means the text is
 * normalised, not its markup: markdown's `_`, `*`, `[`, `|` around "Updated 8 minutes ago" are
 * marks of their own, never part of a word (issue 37 "Noise in emphasis").
 */

/** Characters of a line that are normalised; past them the line is compared by a hash of the rest. */
export const MAX_NORMALIZED_CHARS = 4_000;

/** Query parameters that only track the visitor or the campaign. */
const TRACKING_PARAM = /^(utm_[a-z0-9_]+|fbclid|gclid|gclsrc|dclid|msclkid|yclid|twclid|ttclid|igshid|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|mkt_tok|ref_src|vero_id|oly_enc_id|oly_anon_id|wickedid|srsltid)$/i;
/** Query parameters that carry a session. */
const SESSION_PARAM = /^(jsessionid|phpsessid|sid|sessionid|session_id|sessid|aspsessionid[a-z]*|cfid|cftoken|s_id|zenid|osCsid)$/i;
/** Query parameters that only defeat caches, when their value looks like a number or a hash. */
const BUSTER_PARAM = /^(v|ver|version|ts|t|_|cb|cachebust|cachebuster|cache|nocache|rnd|rand|random|timestamp|time|hash|rev|bust|_dc|nonce)$/i;
const BUSTER_VALUE = /^(\d{1,20}|[0-9a-f]{6,64}|[0-9a-z_-]{16,64})$/i;

/**
 * A URL without tracking, session and cache-busting parameters, and without `;jsessionid=…`
 * path parameters. Anything that does not parse as a URL is returned as it was.
 */
export function cleanUrl(raw: string): string {
  // `[^?#/]*` after a fixed name: each match attempt is bounded by its own run, which it consumes.
  const semi = raw.replace(/;(jsessionid|phpsessid|sid)=[^?#/]*/gi, '');
  const q = semi.indexOf('?');
  if (q < 0) return semi;
  const hashAt = semi.indexOf('#', q);
  const base = semi.slice(0, q);
  const query = semi.slice(q + 1, hashAt < 0 ? undefined : hashAt);
  const frag = hashAt < 0 ? '' : semi.slice(hashAt);
  const kept = query
    .split('&')
    .filter((pair) => {
      if (!pair) return false;
      const eq = pair.indexOf('=');
      let name = eq < 0 ? pair : pair.slice(0, eq);
      let value = eq < 0 ? '' : pair.slice(eq + 1);
      try {
        name = decodeURIComponent(name);
        value = decodeURIComponent(value);
      } catch {
        /* keep the raw text */
      }
      if (TRACKING_PARAM.test(name) || SESSION_PARAM.test(name)) return false;
      if (BUSTER_PARAM.test(name) && value.length <= 64 && (value === '' || BUSTER_VALUE.test(value))) return false;
      return true;
    })
    .sort();
  return base + (kept.length ? `?${kept.join('&')}` : '') + frag;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
/** Characters of a bare URL (`[^\s<>()"'\]]`). */
const urlChar = (c: number) => !isSpace(c) && c !== 60 && c !== 62 && c !== 40 && c !== 41 && c !== 34 && c !== 39 && c !== 93;
/** A word character as `\b` sees it. */
const wordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/**
 * The markdown link target starting at `open` (the index of `(` after `]`): `(url)`, `(<url>)`
 * or `(url "title")`, as [end after `)`, url, title], or where its URL ends when it is no target
 * (every `](` before that point would end the same way and fail too). One forward scan.
 */
function linkTarget(s: string, open: number): [number, string, string] | number {
  let i = open + 1;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  if (s[i] === '<') i++;
  const u0 = i;
  while (i < s.length && s[i] !== ')' && s[i] !== '>' && !isSpace(s.charCodeAt(i))) i++;
  if (i === u0) return i;
  const urlEnd = i;
  const url = s.slice(u0, i);
  if (s[i] === '>') i++;
  let title = '';
  const t0 = i;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  if (i > t0 && s[i] === '"') {
    const close = s.indexOf('"', i + 1);
    if (close < 0) return urlEnd;
    title = s.slice(t0, close + 1);
    i = close + 1;
  }
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return s[i] === ')' ? [i + 1, url, title] : urlEnd;
}

/**
 * Every link and image URL of a markdown line cleaned by {@link cleanUrl}: targets `](url "title")`
 * and bare `http(s)://` URLs. A scan, not a regex: a target that does not close is skipped whole
 * (every `](` inside it would fail the same way), so the work is linear in the line.
 */
export function cleanUrlsIn(line: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if (c === 93 /* ] */ && line.charCodeAt(i + 1) === 40 /* ( */) {
      const t = linkTarget(line, i + 1);
      if (typeof t !== 'number') {
        out += `${line.slice(last, i)}](${cleanUrl(t[1])}${t[2]})`;
        last = i = t[0];
        continue;
      }
      i = Math.max(i + 2, t);
      continue;
    }
    if ((c === 104 || c === 72) && (i === 0 || !wordChar(line.charCodeAt(i - 1))) && /^https?:\/\//i.test(line.slice(i, i + 8))) {
      const start = i;
      i += line[i + 4] === ':' ? 7 : 8;
      while (i < line.length && urlChar(line.charCodeAt(i))) i++;
      out += line.slice(last, start) + cleanUrl(line.slice(start, i));
      last = i;
      continue;
    }
    i++;
  }
  return last === 0 ? line : out + line.slice(last);
}

// ---------------------------------------------------------------------------------------------
// Tokens

/** w: a run of letters (lower-cased in `low`); n: a number (`1,234.5`); s: white space; p: one other character. */
interface Tok {
  k: 'w' | 'n' | 's' | 'p';
  t: string;
  low: string;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const LETTER = /\p{L}/u;
const isLetter = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c > 127 && LETTER.test(s[i]!));
};
const isWs = (c: number) => isSpace(c) || c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;
/** Spaces that group thousands in a number ("1 234"): narrow and thin no-break spaces. */
const isGroupSpace = (c: number) => c === 0x202f || c === 0x2009 || c === 0xa0;

/** The tokens of a line, in one pass. */
export function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    const start = i;
    let k: Tok['k'];
    if (isDigit(c)) {
      k = 'n';
      i++;
      for (;;) {
        while (i < s.length && isDigit(s.charCodeAt(i))) i++;
        const sep = s.charCodeAt(i);
        // "1,234.56", "12.03.2026", "1 234" (a grouping space before exactly three digits).
        if ((sep === 44 || sep === 46) && isDigit(s.charCodeAt(i + 1))) i++;
        else if (isGroupSpace(sep) && isDigit(s.charCodeAt(i + 1)) && isDigit(s.charCodeAt(i + 2)) && isDigit(s.charCodeAt(i + 3)) && !isDigit(s.charCodeAt(i + 4))) i++;
        else break;
      }
    } else if (isLetter(s, i)) {
      k = 'w';
      i++;
      while (i < s.length && isLetter(s, i)) i++;
    } else if (isWs(c)) {
      k = 's';
      i++;
      while (i < s.length && isWs(s.charCodeAt(i))) i++;
    } else {
      k = 'p';
      // A surrogate pair is one mark.
      i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
    }
    const t = s.slice(start, i);
    out.push({ k, t, low: k === 'w' ? t.toLowerCase() : t });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Vocabulary

const words = (xs: string) => new Set(xs.split(' '));
const NUMBER_WORDS = words('a an one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty few several some');
const UNITS = words('second seconds sec secs s minute minutes min mins m hour hours hr hrs h day days d week weeks wk wks w month months mo mos year years yr yrs y');
const QUALIFIERS = words('about almost over nearly');
const SHORT_UNITS = words('s m h d w');
const STAMP_VERBS = words('updated posted edited modified published seen active online refreshed');
/** One-word relative times, and the two-word ones by their first word. */
const RELATIVE_WORDS = words('recently yesterday today tonight tomorrow');
const RELATIVE_PAIRS: Record<string, Set<string>> = {
  just: words('now'),
  right: words('now'),
  moment: words('ago'),
  moments: words('ago'),
  seconds: words('ago'),
  this: words('morning afternoon evening'),
  last: words('night week month year'),
  earlier: words('today'),
  later: words('today'),
};
const MONTHS = words('jan january feb february mar march apr april may jun june jul july aug august sep sept september oct october nov november dec december');
const isWeekday = (w: string) => /^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,6}$/.test(w);
const ORDINALS = words('st nd rd th');
const MERIDIEM = words('am pm');
const ZONES = words('z utc gmt');
const isZone = (w: string) => ZONES.has(w) || /^[a-z]{1,3}t$/.test(w);
const DURATION_UNITS = words('ms millisecond milliseconds s sec secs second seconds');
/** Words that say a line shows when the page was made, fetched or refreshed. */
const RENDER_WORDS = words('updated refreshed generated rendered fetched retrieved loaded served cached built synced checked crawled modified timestamp');
const RENDER_PAIRS: Record<string, Set<string>> = {
  as: words('of at'),
  current: words('time date'),
  server: words('time date'),
  local: words('time date'),
  today: words('is'),
  time: words('stamp'),
};
/** Words of a live counter ("1699 views", "Visitors today: 7716", "12 people are viewing this"). */
const COUNTER_WORDS = words('view views viewed visitor visitors viewing watching pageview pageviews impressions hits');
/** Words allowed between a counter word and its number ("Visitors today: 7716", "viewed by 300"). */
const COUNTER_FILLER = words('today now total so far all time this week month by count page');
/** Words that name a request, trace or session id on the line (then long opaque tokens are ids). */
const ID_WORDS = words('request trace correlation session nonce csrf build cache ray');
const isIdWord = (w: string) => ID_WORDS.has(w) || ID_WORDS.has(w.replace(/(?:id|token|key)$/, ''));
const CURRENCY = new Set(['$', '€', '£', '¥', '₹', '₽', '¢']);
/**
 * Marks of emphasis and labels a counter may stand among ("*1699 views*", "**Visitors today:** 7716");
 * any other mark ("·", "|", ",", a bracket) separates it from the words around.
 */
const COUNTER_MARKS = new Set(['*', '_', ':', '=', '~', '`']);

/** Words a rule can start at (any other word, space or mark starts none). */
const STARTERS = new Set([...QUALIFIERS, 'less', 'more', ...NUMBER_WORDS, 'couple', ...RELATIVE_WORDS, ...Object.keys(RELATIVE_PAIRS), ...MONTHS, 'copyright']);
const canStart = (t: Tok) => t.k === 'n' || (t.k === 'p' ? t.t === '©' || t.t === '(' : t.k === 'w' && (STARTERS.has(t.low) || isWeekday(t.low)));

const digits = (t: Tok | undefined, min: number, max: number) => t?.k === 'n' && t.t.length >= min && t.t.length <= max && /^\d+$/.test(t.t);
const plainNumber = (t: Tok | undefined) => t?.k === 'n' && /^\d+(?:[.,]\d+)?$/.test(t.t);

// ---------------------------------------------------------------------------------------------
// Rules: each takes the tokens and a start, and returns the end (exclusive) of what it matched, or -1.

type Rule = (ts: Tok[], i: number) => number;

const sp = (ts: Tok[], i: number) => (ts[i]?.k === 's' ? i + 1 : i);
const isP = (t: Tok | undefined, a: string, b?: string) => t?.k === 'p' && (t.t === a || t.t === b);

/** Time zone or offset after a time: ` Z`, `UTC`, `+01:00`, `-0500`, `CET`. */
function zone(ts: Tok[], i: number): number {
  const j = sp(ts, i);
  const t = ts[j];
  if (t?.k === 'w' && isZone(t.low)) return j + 1;
  if (isP(t, '+', '-') && digits(ts[j + 1], 2, 4)) {
    if (ts[j + 1]!.t.length === 2 && isP(ts[j + 2], ':') && digits(ts[j + 3], 2, 2)) return j + 4;
    return j + 2;
  }
  return i;
}

/** `HH:MM`, `HH:MM:SS`, `HH:MM:SS.mmm`; `needSeconds` for a clock time standing alone. */
function clock(ts: Tok[], i: number, needSeconds: boolean): number {
  if (!digits(ts[i], 1, 2) || !isP(ts[i + 1], ':') || !digits(ts[i + 2], 2, 2)) return -1;
  let j = i + 3;
  if (isP(ts[j], ':') && ts[j + 1]?.k === 'n' && /^\d{2}(?:[.,]\d{1,9})?$/.test(ts[j + 1]!.t)) j += 2;
  else if (needSeconds) return -1;
  // am / pm / a.m. / p.m.
  const m = sp(ts, j);
  if (ts[m]?.k === 'w' && MERIDIEM.has(ts[m]!.low)) j = m + 1;
  else if (ts[m]?.k === 'w' && (ts[m]!.low === 'a' || ts[m]!.low === 'p') && isP(ts[m + 1], '.') && ts[m + 2]?.low === 'm') j = isP(ts[m + 3], '.') ? m + 4 : m + 3;
  return zone(ts, j);
}

/** ISO 8601 with a time (`2026-11-28T14:03:22Z`, `2026-11-28 14:03`) and HTTP dates (`Sat, 28 Nov 2026 14:03:22 GMT`). */
const timestamp: Rule = (ts, i) => {
  if (digits(ts[i], 4, 4) && isP(ts[i + 1], '-') && digits(ts[i + 2], 2, 2) && isP(ts[i + 3], '-') && digits(ts[i + 4], 2, 2)) {
    const t = ts[i + 5];
    if ((t?.k === 'w' && t.low === 't') || (t?.k === 's' && t.t === ' ')) {
      const e = clock(ts, i + 6, false);
      if (e > 0) return e;
    }
    return -1;
  }
  if (ts[i]?.k === 'w' && isWeekday(ts[i]!.low)) {
    let j = i + 1;
    if (isP(ts[j], ',')) j++;
    j = sp(ts, j);
    if (!digits(ts[j], 1, 2) || ts[j + 1]?.k !== 's' || ts[j + 2]?.k !== 'w' || !MONTHS.has(ts[j + 2]!.low) || ts[j + 3]?.k !== 's' || !digits(ts[j + 4], 4, 4) || ts[j + 5]?.k !== 's') return -1;
    return clock(ts, j + 6, false);
  }
  return -1;
};

/** A clock time with seconds ("14:03:22", "2:03:22 pm"): almost always when the page was made. */
const clockSeconds: Rule = (ts, i) => clock(ts, i, true);

/** A number or number word of a relative time, as its end, or -1 ("5", "1.5", "an", "a few", "a couple of"). */
function numWord(ts: Tok[], i: number): number {
  const t = ts[i];
  if (plainNumber(t)) return i + 1;
  if (t?.k !== 'w') return -1;
  const w = t.low;
  if (w === 'a' && ts[i + 1]?.k === 's' && ts[i + 2]?.low === 'few') return i + 3;
  if ((w === 'a' && ts[i + 1]?.k === 's' && ts[i + 2]?.low === 'couple') || w === 'couple') {
    const c = w === 'a' ? i + 2 : i;
    return ts[c + 1]?.k === 's' && ts[c + 2]?.low === 'of' ? c + 3 : -1;
  }
  return NUMBER_WORDS.has(w) ? i + 1 : -1;
}

/** "5 minutes", "3h", "an hour." as its end, or -1. */
function amount(ts: Tok[], i: number): number {
  const n = numWord(ts, i);
  if (n < 0) return -1;
  const u = sp(ts, n);
  if (ts[u]?.k !== 'w' || !UNITS.has(ts[u]!.low)) return -1;
  return isP(ts[u + 1], '.') ? u + 2 : u + 1;
}

/**
 * A relative time: "5 minutes ago", "about 3 hours ago", "2 days, 4 hours ago", "3 hrs left",
 * "5 minutes from now". Its parts are scanned once: a run of amounts that ends in none of those
 * words is remembered (`skipUntil`), and no start inside it is tried again (each would reach the
 * same end and fail the same way).
 */
function relativeRule(): Rule {
  let skipUntil = -1;
  return (ts, i) => {
    if (i < skipUntil) return -1;
    let j = i;
    if (ts[j]?.k === 'w' && QUALIFIERS.has(ts[j]!.low) && ts[j + 1]?.k === 's') j += 2;
    else if (ts[j]?.k === 'w' && (ts[j]!.low === 'less' || ts[j]!.low === 'more') && ts[j + 1]?.k === 's' && ts[j + 2]?.low === 'than' && ts[j + 3]?.k === 's') j += 4;
    let end = amount(ts, j);
    if (end < 0) return -1;
    for (;;) {
      // ", 4 hours", " and 4 hours", ", and 4 hours"
      let k = end;
      if (isP(ts[k], ',')) k++;
      k = sp(ts, k);
      if (ts[k]?.low === 'and' && ts[k + 1]?.k === 's') k += 2;
      const next = amount(ts, k);
      if (next < 0) break;
      end = next;
    }
    const s = ts[end]?.k === 's' ? end + 1 : -1;
    const w = s > 0 ? ts[s] : undefined;
    if (w?.k === 'w') {
      if (w.low === 'ago' || w.low === 'left' || w.low === 'remaining') return s + 1;
      if (w.low === 'from' && ts[s + 1]?.k === 's' && ts[s + 2]?.low === 'now') return s + 3;
    }
    skipUntil = end;
    return -1;
  };
}

/** "just now", "yesterday", "this morning", "earlier today", "a while ago", "a moment ago". */
const relativeWords: Rule = (ts, i) => {
  const t = ts[i];
  if (t?.k !== 'w') return -1;
  if (RELATIVE_WORDS.has(t.low)) return i + 1;
  if (t.low === 'a' && ts[i + 1]?.k === 's' && (ts[i + 2]?.low === 'while' || ts[i + 2]?.low === 'moment') && ts[i + 3]?.k === 's' && ts[i + 4]?.low === 'ago') return i + 5;
  const second = RELATIVE_PAIRS[t.low];
  return second && ts[i + 1]?.k === 's' && ts[i + 2]?.k === 'w' && second.has(ts[i + 2]!.low) ? i + 3 : -1;
};

/** Abbreviated "updated 5m", "seen 3h": a short unit after a word that stamps the line (the word itself stays). */
const stampedShort: Rule = (ts, i) => {
  if (!digits(ts[i], 1, 6) || ts[i - 1]?.k !== 's' || ts[i - 2]?.k !== 'w' || !STAMP_VERBS.has(ts[i - 2]!.low)) return -1;
  const u = sp(ts, i + 1);
  return ts[u]?.k === 'w' && SHORT_UNITS.has(ts[u]!.low) ? u + 1 : -1;
};

/** "28th", "28": a day of the month, as its end. */
function day(ts: Tok[], i: number): number {
  if (!digits(ts[i], 1, 2)) return -1;
  return ts[i + 1]?.k === 'w' && ORDINALS.has(ts[i + 1]!.low) ? i + 2 : i + 1;
}

/** ", 2026" / " 2026" after a date, as its end (or `i` when there is none). */
function year(ts: Tok[], i: number): number {
  const j = isP(ts[i], ',') ? i + 1 : i;
  return ts[j]?.k === 's' && digits(ts[j + 1], 4, 4) ? j + 2 : i;
}

/** A month name and its optional dot. */
function month(ts: Tok[], i: number): number {
  if (ts[i]?.k !== 'w' || !MONTHS.has(ts[i]!.low)) return -1;
  return isP(ts[i + 1], '.') ? i + 2 : i + 1;
}

/** Any date or time, for lines that say they show a render time: `2026-11-28`, `28/11/2026`, `Nov 28, 2026`, `28 November 2026`, `2:15 PM`, `0.231 s`. */
const anyDate: Rule = (ts, i) => {
  const t = ts[i];
  if (!t) return -1;
  if (digits(t, 4, 4) && isP(ts[i + 1], '-') && digits(ts[i + 2], 1, 2) && isP(ts[i + 3], '-') && digits(ts[i + 4], 1, 2)) return i + 5;
  if (digits(t, 1, 2) && isP(ts[i + 1], '/') && digits(ts[i + 2], 1, 2) && isP(ts[i + 3], '/') && digits(ts[i + 4], 2, 4)) return i + 5;
  if (t.k === 'n' && /^\d{1,2}\.\d{1,2}\.\d{2,4}$/.test(t.t)) return i + 1;
  // Optional weekday: "Saturday, November 28, 2026", "Sat 28 Nov".
  let j = i;
  if (t.k === 'w' && isWeekday(t.low)) {
    j = i + 1;
    if (isP(ts[j], ',')) j++;
    if (ts[j]?.k !== 's') return -1;
    j++;
  }
  const m = month(ts, j);
  if (m > 0 && ts[m]?.k === 's') {
    const d = day(ts, m + 1);
    if (d > 0) return year(ts, d);
  }
  const d = day(ts, j);
  if (d > 0 && ts[d]?.k === 's') {
    const m2 = month(ts, d + 1);
    if (m2 > 0) return year(ts, m2);
  }
  if (j !== i) return -1;
  const c = clock(ts, i, false);
  if (c > 0) return c;
  // A duration: "0.231 s", "87ms".
  if (plainNumber(t)) {
    const u = sp(ts, i + 1);
    if (ts[u]?.k === 'w' && DURATION_UNITS.has(ts[u]!.low)) return u + 1;
  }
  return -1;
};

/** "© 2024", "(c) 2024–2026", "Copyright 2026": copyright years roll over on their own. */
const copyright: Rule = (ts, i) => {
  let j: number;
  if (isP(ts[i], '©')) j = i + 1;
  else if (isP(ts[i], '(') && ts[i + 1]?.low === 'c' && isP(ts[i + 2], ')')) j = i + 3;
  else if (ts[i]?.low === 'copyright') j = i + 1;
  else return -1;
  j = sp(ts, j);
  if (!digits(ts[j], 4, 4)) return -1;
  let e = j + 1;
  const d = sp(ts, e);
  if (isP(ts[d], '-', '–')) {
    const y = sp(ts, d + 1);
    if (digits(ts[y], 4, 4)) e = y + 1;
  }
  return e;
};

const currency = (t: Tok | undefined) => t?.k === 'p' && CURRENCY.has(t.t);

/** Is there a counter word within ten tokens from `from` (by `step`), past marks and at most two words (only filler words when `filler`)? */
function counterNear(ts: Tok[], from: number, step: 1 | -1, filler: boolean): boolean {
  let wordsSeen = 0;
  for (let j = from, n = 0; j >= 0 && j < ts.length && n < 10; j += step, n++) {
    const t = ts[j]!;
    if (t.k === 's') continue;
    if (t.k === 'p') {
      // A key/value table row: "| Views | 1699 |" (the label's cell before the number's).
      if (COUNTER_MARKS.has(t.t) || (filler && t.t === '|')) continue;
      return false;
    }
    if (t.k === 'n') return false;
    if (COUNTER_WORDS.has(t.low)) return true;
    if ((filler && !COUNTER_FILLER.has(t.low)) || ++wordsSeen > 2) return false;
  }
  return false;
}

/** The end of a counter's number: its groups of three after a space ("1 234") and its "k"/"m" suffix ("1.2k views"). */
function numberEnd(ts: Tok[], i: number): number {
  let e = i + 1;
  for (let g = 0; g < 4 && ts[e]?.t === ' ' && digits(ts[e + 1], 3, 3); g++) e += 2;
  return ts[e]?.k === 'w' && (ts[e]!.low === 'k' || ts[e]!.low === 'm') ? e + 1 : e;
}

/** Is the number at `i` a live counter: a counter word within two words after it, or before it with only filler words and marks between? Never a price. */
function isCounter(ts: Tok[], i: number): boolean {
  if (currency(ts[i - 1]) || currency(ts[i + 1])) return false;
  return counterNear(ts, numberEnd(ts, i), 1, false) || counterNear(ts, i - 1, -1, true);
}

/** Does any token satisfy `f`, or any pair of words (`pairs`)? */
function hasWord(ts: Tok[], single: Set<string>, pairs?: Record<string, Set<string>>): boolean {
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    if (t.k !== 'w') continue;
    if (single.has(t.low)) return true;
    const second = pairs?.[t.low];
    if (second && ts[i + 1]?.k === 's' && ts[i + 2]?.k === 'w' && second.has(ts[i + 2]!.low)) return true;
  }
  return false;
}

const idChar = (c: number) => wordChar(c) || c === 45;

/** Runs of `[0-9A-Za-z_-]` of 12 or more with a digit and a letter (request ids, nonces) as `⟨id⟩`; one scan. */
function neutralizeIds(s: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  while (i < s.length) {
    if (!idChar(s.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let digit = false;
    let letter = false;
    while (i < s.length && idChar(s.charCodeAt(i))) {
      const c = s.charCodeAt(i);
      if (isDigit(c)) digit = true;
      else if (c !== 45 && c !== 95) letter = true;
      i++;
    }
    if (i - start >= 12 && digit && letter) {
      out += `${s.slice(last, start)}⟨id⟩`;
      last = i;
    }
  }
  return last === 0 ? s : out + s.slice(last);
}

/** Work counter (tests): tokens visited by {@link neutralizeTimes} since the last reset. */
export const normalizeWork = { tokens: 0, ruleCalls: 0 };

/** Relative times, timestamps, clock times, render-time dates, live counters and copyright years of one line replaced by tokens. */
export function neutralizeTimes(line: string): string {
  const ts = tokenize(line);
  const renderLine = hasWord(ts, RENDER_WORDS, RENDER_PAIRS);
  const counterLine = hasWord(ts, COUNTER_WORDS);
  const rules: Array<[Rule, string]> = [
    [copyright, '©'],
    [timestamp, '⟨time⟩'],
    [clockSeconds, '⟨time⟩'],
    [relativeRule(), '⟨time⟩'],
    [relativeWords, '⟨time⟩'],
    [stampedShort, '⟨time⟩'],
    ...(renderLine ? ([[anyDate, '⟨time⟩']] as Array<[Rule, string]>) : []),
  ];
  let out = '';
  let i = 0;
  while (i < ts.length) {
    normalizeWork.tokens++;
    let end = -1;
    let token = '';
    if (canStart(ts[i]!))
      for (const [rule, tok] of rules) {
      normalizeWork.ruleCalls++;
      end = rule(ts, i);
      if (end > i) {
        token = tok;
        break;
      }
    }
    if (end < 0 && counterLine && ts[i]!.k === 'n' && isCounter(ts, i)) {
      end = numberEnd(ts, i);
      token = '⟨n⟩';
    }
    if (end > i) {
      out += token;
      i = end;
    } else out += ts[i++]!.t;
  }
  return ts.some((t) => t.k === 'w' && isIdWord(t.low)) ? neutralizeIds(out) : out;
}

/** Whitespace of a line made canonical: NBSP and zero-width characters, runs collapsed, trimmed. */
export function squeezeSpace(line: string): string {
  return line.replace(/[\u200B-\u200D\uFEFF\u00AD]/g, '').replace(/[\s\u00A0\u2000-\u200A\u202F\u205F\u3000]+/g, ' ').trim();
}

/** A removal rule of the tenant (`ignore_patterns`), already compiled. */
export type LineFilter = (line: string) => string;

/** A line of markdown punctuation only (a bullet whose text was removed): `[\s*_>#|:\-–—.,;·•]*`. */
const PUNCT_ONLY = new Set([...' *_>#|:-–—.,;·•']);
const punctuationOnly = (s: string) => {
  for (const ch of s) if (!PUNCT_ONLY.has(ch)) return false;
  return true;
};

const zeroWidth = (c: number) => (c >= 0x200b && c <= 0x200d) || c === 0xfeff || c === 0xad;

/**
 * A line longer than {@link MAX_NORMALIZED_CHARS} once squeezed: where its first that many
 * squeezed characters end in the raw line, and a hash of everything after (white space and
 * zero-width characters left out, so only the text counts). One pass over the line; no regex
 * over megabytes.
 */
function splitLong(line: string): { head: number; tailHash: string } | null {
  if (line.length <= MAX_NORMALIZED_CHARS) return null;
  let count = 0;
  let pending = false;
  let i = 0;
  for (; i < line.length && count < MAX_NORMALIZED_CHARS; i++) {
    const c = line.charCodeAt(i);
    if (zeroWidth(c)) continue;
    if (isWs(c)) {
      pending = count > 0;
      continue;
    }
    count += pending ? 2 : 1;
    pending = false;
  }
  if (count < MAX_NORMALIZED_CHARS || i >= line.length) return null;
  const rest = new Uint16Array(line.length - i);
  let n = 0;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (!zeroWidth(c) && !isWs(c)) rest[n++] = c;
  }
  return { head: line.length - rest.length, tailHash: createHash('sha256').update(new Uint8Array(rest.buffer, 0, n * 2)).digest('base64url') };
}

/**
 * The comparison key of one markdown line: whitespace squeezed, the tenant's patterns removed,
 * tracking params cleaned, times neutralised. An empty key means the line does not count. Only
 * about the first {@link MAX_NORMALIZED_CHARS} characters are normalised (and seen by the
 * tenant's patterns); the rest of a longer line counts by a hash of its text.
 */
export function lineKey(line: string, filters: readonly LineFilter[] = []): string {
  const long = splitLong(line);
  let out = squeezeSpace(long ? line.slice(0, long.head) : line);
  const rest = long ? ` ⟨+${long.tailHash}⟩` : '';
  // The tenant's patterns see the text as the page shows it (before any token replaces a time).
  for (const f of filters) out = f(out);
  out = neutralizeTimes(cleanUrlsIn(out));
  out = squeezeSpace(out);
  if (punctuationOnly(out)) return rest.trim();
  return out + rest;
}

/** A string value of structured data compared the same way (fields of json / extracted data). */
export function valueKey(value: string, filters: readonly LineFilter[] = []): string {
  return lineKey(value, filters);
}
